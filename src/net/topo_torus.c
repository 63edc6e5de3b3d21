/* topo_torus.c: the R x C (or X x Y x Z) torus: a mesh with wrap-around links; dimension-order
 * routing, each dimension the shorter way round (net/grid.c). */
#include "net/grid.h"

static int torus_procs(const char *args, char *why, size_t len)
{
    return hr__grid_procs("torus", args, 2, 3, why, len);
}

static int torus_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    return hr__grid_make(t, "torus", args, p, 2, 3, 1, why, len);
}

const hr_topology hr__topo_torus = {
    .name = "torus",
    .syntax = "torus RxC[xZ]",
    .summary = "2-D or 3-D torus, dimension-order routing the shorter way round (ties go up)",
    .procs = torus_procs,   /* the product of the sides */
    .make = torus_make,
};
