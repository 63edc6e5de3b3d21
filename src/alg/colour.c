/* colour.c: edge colouring of a bipartite multigraph with as many colours as its maximum degree
 * (Koenig's theorem), for hrel.offline. Edges are taken one at a time: a colour a free at the
 * left end u and a colour b free at the right end v; if a is also free at v the edge takes it;
 * otherwise the path from v whose edges alternate a, b, a, ... has its two colours swapped (in a
 * bipartite graph it cannot reach u, and it ends at a vertex missing the next colour), after which
 * a is free at both ends. O(E (D/64 + L)) for paths of length L.
 */
#include "alg/colour.h"

#include <stdlib.h>
#include <string.h>

typedef struct graph {
    int       nv, d, words;
    int32_t  *at;      /* [nv][d]: the edge of colour c at vertex x, or -1 */
    uint64_t *used;    /* [nv][words]: colours taken at x; the bits past d are set */
} graph;

static int first_free(const graph *g, int x)
{
    const uint64_t *u = g->used + (size_t)x * (size_t)g->words;
    for (int w = 0; w < g->words; w++)
        if (~u[w] != 0)
            return 64 * w + __builtin_ctzll(~u[w]);
    return -1;   /* cannot happen: a vertex with an uncoloured edge has fewer than d colours */
}

static void put(graph *g, int x, int c, int32_t e)
{
    g->at[(size_t)x * (size_t)g->d + (size_t)c] = e;
    uint64_t bit = UINT64_C(1) << (c % 64), *w = &g->used[(size_t)x * (size_t)g->words + (size_t)c / 64];
    *w = e >= 0 ? *w | bit : *w & ~bit;
}

static int32_t edge_at(const graph *g, int x, int c)
{
    return g->at[(size_t)x * (size_t)g->d + (size_t)c];
}

int hr__edge_colour(int nleft, int nright, const uint32_t *left, const uint32_t *right, size_t ne,
                    uint32_t *colour, int *ncolours)
{
    graph g = { .nv = nleft + nright };
    int *deg = calloc((size_t)g.nv, sizeof *deg);
    int32_t *path = malloc(((size_t)g.nv + 1) * sizeof *path);
    if (deg == NULL || path == NULL || ne > INT32_MAX) {
        free(deg);
        free(path);
        return -1;
    }
    for (size_t e = 0; e < ne; e++) {
        deg[left[e]]++;
        deg[nleft + (int)right[e]]++;
    }
    for (int x = 0; x < g.nv; x++)
        g.d = deg[x] > g.d ? deg[x] : g.d;
    free(deg);
    *ncolours = g.d;
    g.words = (g.d + 63) / 64;
    g.at = malloc((size_t)g.nv * (size_t)(g.d ? g.d : 1) * sizeof *g.at);
    g.used = calloc((size_t)g.nv * (size_t)(g.words ? g.words : 1), sizeof *g.used);
    if (g.at == NULL || g.used == NULL) {
        free(g.at);
        free(g.used);
        free(path);
        return -1;
    }
    memset(g.at, 0xff, (size_t)g.nv * (size_t)g.d * sizeof *g.at);
    if (g.d % 64 != 0)
        for (int x = 0; x < g.nv; x++)
            g.used[(size_t)x * (size_t)g.words + (size_t)g.words - 1] = ~UINT64_C(0) << (g.d % 64);

    for (size_t e = 0; e < ne; e++) {
        int u = (int)left[e], v = nleft + (int)right[e];
        int a = first_free(&g, u), b = first_free(&g, v);
        if (edge_at(&g, v, a) >= 0) {
            /* Swap a and b on the path from v that starts with colour a. */
            int n = 0, x = v, c = a;
            int32_t f;
            while ((f = edge_at(&g, x, c)) >= 0) {
                path[n++] = f;
                x = x == (int)left[f] ? nleft + (int)right[f] : (int)left[f];
                c = c == a ? b : a;
            }
            for (int i = 0; i < n; i++) {
                f = path[i];
                put(&g, (int)left[f], (int)colour[f], -1);
                put(&g, nleft + (int)right[f], (int)colour[f], -1);
            }
            for (int i = 0; i < n; i++) {
                f = path[i];
                colour[f] = colour[f] == (uint32_t)a ? (uint32_t)b : (uint32_t)a;
                put(&g, (int)left[f], (int)colour[f], f);
                put(&g, nleft + (int)right[f], (int)colour[f], f);
            }
        }
        colour[e] = (uint32_t)a;
        put(&g, u, a, (int32_t)e);
        put(&g, v, a, (int32_t)e);
    }
    free(g.at);
    free(g.used);
    free(path);
    return 0;
}
