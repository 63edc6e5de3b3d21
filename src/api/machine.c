/* machine.c: the calls of machine.h that read a config alone, the same on every engine. */
#include <hremu/machine.h>

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cores this process may run on (its affinity mask), at least 1. */
static int cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int hr_machine_carriers(const hr_machine_config *cfg)
{
    int n = cfg->carriers > 0                    ? cfg->carriers
            : cfg->carriers == HR_CARRIERS_CORES ? cores()
                                                 : 1;
    return cfg->procs > 0 && n > cfg->procs ? cfg->procs : n;
}

int hr_machine_jitter_env(void)
{
    const char *e = getenv("HREMU_JITTER");
    if (e == NULL || strcmp(e, "") == 0 || strcmp(e, "0") == 0)
        return 0;
    return strcmp(e, "1") == 0 ? 1 : -1;
}
