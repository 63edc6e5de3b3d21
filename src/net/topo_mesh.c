/* topo_mesh.c: the R x C mesh: (r, c) linked to its row and column neighbours, no wrap-around;
 * dimension-order routing (net/grid.c). */
#include "net/grid.h"

static int mesh_procs(const char *args, char *why, size_t len)
{
    return hr__grid_procs("mesh", args, 2, 2, why, len);
}

static int mesh_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    return hr__grid_make(t, "mesh", args, p, 2, 2, 0, why, len);
}

const hr_topology hr__topo_mesh = {
    .name = "mesh",
    .syntax = "mesh RxC",
    .summary = "R x C mesh, dimension-order routing (along the row, then the column)",
    .procs = mesh_procs,   /* R*C */
    .make = mesh_make,
};
