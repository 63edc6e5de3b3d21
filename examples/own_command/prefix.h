/* prefix.h: a workload kind and an algorithm of a program's own, for the hremu command. */
#ifndef PREFIX_H
#define PREFIX_H

#include <hremu/algorithm.h>
#include <hremu/workload.h>

#define PREFIX_KIND ((hr_kind)(HR_KIND_USER + 1))

extern const hr_workload prefix_workload;    /* kind "prefix": n integers, a block each */
extern const hr_algorithm prefix_algorithm;  /* "mine.prefix": their inclusive prefix sums */

#endif
