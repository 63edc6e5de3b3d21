/* main.c: the hremu command with this program's workload and algorithm added. */
#include <stdio.h>

#include <hremu/main.h>

#include "prefix.h"

int main(int argc, char **argv)
{
    const char *why = NULL;
    if (hr_workload_register(&prefix_workload, &why) != HR_OK ||
        hr_algorithm_register(&prefix_algorithm, &why) != HR_OK) {
        fprintf(stderr, "my_hremu: %s\n", why);
        return 2;
    }
    return hremu_main(argc, argv);
}
