/* main.h: the hremu command as a library call, for a program that adds algorithms and workloads
 * of its own and wants the whole command line for them (configs, sweeps, tables, traces, regions).
 *
 *     int main(int argc, char **argv)
 *     {
 *         hr_workload_register(&my_workload, NULL);    (<hremu/workload.h>)
 *         hr_algorithm_register(&my_algorithm, NULL);  (<hremu/algorithm.h>)
 *         return hremu_main(argc, argv);
 *     }
 *
 * Link with `pkg-config --libs hremu` (hremu.pc names libinih, which the command needs besides the
 * library; --static is not needed).
 */
#ifndef HREMU_MAIN_H
#define HREMU_MAIN_H

/* Run the hremu command on argv (hremu --help lists the options) and return its exit status:
 * 0 every row verified, 1 a row failed, 2 a usage or configuration error. Prints to stdout and
 * stderr as the hremu command does. Call it from the program's main thread. */
int hremu_main(int argc, char **argv);

#endif /* HREMU_MAIN_H */
