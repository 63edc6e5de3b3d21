/* grid.h: what mesh and torus share: shapes "RxC" (and "XxYxZ"), coordinates, neighbours and
 * dimension-order routes, with or without wrap-around links. */
#ifndef HREMU_NET_GRID_H
#define HREMU_NET_GRID_H

#include "net/topology.h"

/* The p a grid shape fixes (the product of its sides), or -1 with a reason: name is the
 * topology's, ndims_min .. ndims_max the number of sides it takes. */
int hr__grid_procs(const char *name, const char *args, int ndims_min, int ndims_max, char *why,
                   size_t len);
/* Make a grid instance: wrap nonzero for the torus. 0, or -1 with a reason. */
int hr__grid_make(hr_topo *t, const char *name, const char *args, int p, int ndims_min,
                  int ndims_max, int wrap, char *why, size_t len);

#endif
