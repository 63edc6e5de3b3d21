/* colour.h: proper edge colouring of a bipartite multigraph with maximum-degree many colours. */
#ifndef HREMU_ALG_COLOUR_H
#define HREMU_ALG_COLOUR_H

#include <stddef.h>
#include <stdint.h>

/* Edge e joins left vertex left[e] (0 .. nleft-1) and right vertex right[e] (0 .. nright-1).
 * Colours every edge with colour[e] in 0 .. D-1, D the largest degree (*ncolours), so that no two
 * edges at one vertex share a colour. 0, or -1 when memory runs out. */
int hr__edge_colour(int nleft, int nright, const uint32_t *left, const uint32_t *right, size_t ne,
                    uint32_t *colour, int *ncolours);

#endif
