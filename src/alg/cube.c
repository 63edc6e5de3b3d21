/* cube.c: the shape of the machine's hypercube or reduced hypercube (cube.h). */
#include "alg/cube.h"

#include <string.h>

hr_cube hr__cube_of(hr_proc *p, const char *call)
{
    int dims[2];
    const char *shape = hr_topology_shape(p);
    int nd = hr_topology_dims(p, dims, 2);
    if (strncmp(shape, "rh ", 3) == 0 && nd == 2)
        return (hr_cube){ .k = dims[0], .n = dims[1], .D = 1 << dims[1],
                          .nu = dims[0] + (1 << dims[1]) };
    if (strcmp(shape, "hypercube") == 0 && nd == 1)
        return (hr_cube){ .k = dims[0], .n = 0, .D = 0, .nu = dims[0] };
    hr_fail(p, "%s runs on a hypercube or a reduced hypercube, not on %s", call, shape);
}
