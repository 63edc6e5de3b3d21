/* one_message.c: the walk of docs/architecture.md as a program. P0 sends P5 eight bytes under
 * the given discipline and topology (argv[1], argv[2]) and P5, already waiting, receives them;
 * every other processor does nothing. scripts/message_path.sh runs it under callgrind,
 * collecting inside hr_send and hr_recv only, to list the source files whose code the message
 * runs. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <hremu/hremu.h>
#include <hremu/machine.h>

static void body(hr_proc *p, void *arg)
{
    (void)arg;
    long x = 42;
    if (hr_pid(p) == 0) {
        /* The walk is of a receive that waits for its message: P5 blocks in hr_recv meanwhile
         * (this sleep is outside hr_send, where nothing is collected). */
        nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
        hr_send(p, 5, 0, &x, sizeof x);
    }
    else if (hr_pid(p) == 5) {
        hr_recv(p, 0, 0, &x, sizeof x, NULL);
        if (x != 42)
            hr_fail(p, "received %ld, not 42", x);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: one_message DISCIPLINE TOPOLOGY\n");
        return 2;
    }
    hr_machine_config cfg = { .procs = 16, .discipline = argv[1], .topology = argv[2],
                              .seed = 1, .jitter = 0 };
    hr_machine *m;
    hr_run_result res;
    if (hr_cost_preset("cm5", &cfg.cost) != HR_OK || hr_machine_create(&cfg, &m, NULL) != HR_OK)
        return 1;
    int rc = hr_machine_run(m, body, NULL, &res);
    hr_machine_destroy(m);
    if (rc != HR_OK || res.status != HR_OK)
        return 1;
    printf("model_time_s %.9f\n", res.model_time_s);
    return 0;
}
