/* topoinfo.h: `hremu --topology SPEC`: what a topology is, as figures. */
#ifndef HREMU_CLI_TOPOINFO_H
#define HREMU_CLI_TOPOINFO_H

#include <stdio.h>

#include "cli/report.h"

/* Build topology spec on procs processors (0: the shape's p) and write its figures to out:
 * nodes, links, degrees, diameter and average distance (breadth-first search from every
 * processor), bisection width where known. HR_OK, or HR_EINVAL with a reason in why. */
int hr__topology_info(const char *spec, int procs, hr_format format, FILE *out, char *why,
                      size_t len);

#endif
