/* topoinfo.c: a topology's figures, measured on its instance: every processor's distances by
 * breadth-first search over the links (switches included: a fat tree's processors are two or
 * more links apart). */
#include "cli/topoinfo.h"

#include <stdlib.h>
#include <hremu/error.h>
#include <hremu/machine.h>

#include "net/topo_rh.h"
#include "net/topology.h"

/* A breadth-first search from every processor is O(p^2): above this, too slow to wait for. */
#define TOPOINFO_MAX 4096

int hr__topology_info(const char *spec, int procs, hr_format format, FILE *out, char *why,
                      size_t len)
{
    hr_topo *t = NULL;
    if (hr__topo_make(spec, procs, &t, why, len) != 0)
        return HR_EINVAL;
    int p = t->p, dmin = 0, dmax = 0, diameter = 0;
    if (p > TOPOINFO_MAX && t->nlinks > 0) {
        snprintf(why, len, "%d processors: the figures search from every processor, up to %d", p,
                 TOPOINFO_MAX);
        hr__topo_destroy(t);
        return HR_EINVAL;
    }
    double sum = 0;
    if (t->nlinks == 0) {   /* complete: every pair one link apart, stored as no links */
        diameter = p > 1 ? 1 : 0;
        dmin = dmax = p - 1;
        sum = (double)p * (p - 1);
    } else {
        int *dist = malloc((size_t)t->nodes * sizeof *dist);
        int *queue = malloc((size_t)t->nodes * sizeof *queue);
        if (dist == NULL || queue == NULL) {
            free(dist);
            free(queue);
            hr__topo_destroy(t);
            snprintf(why, len, "out of memory");
            return HR_ENOMEM;
        }
        dmin = t->nodes;
        for (int u = 0; u < p; u++) {
            int d = t->first[u + 1] - t->first[u];
            dmin = d < dmin ? d : dmin;
            dmax = d > dmax ? d : dmax;
            hr__topo_bfs(t, u, dist, queue);
            for (int v = 0; v < p; v++) {
                if (dist[v] < 0) {
                    snprintf(why, len, "%s: P%d cannot reach P%d", t->shape, u, v);
                    free(dist);
                    free(queue);
                    hr__topo_destroy(t);
                    return HR_EINVAL;
                }
                sum += dist[v];
                diameter = dist[v] > diameter ? dist[v] : diameter;
            }
        }
        free(dist);
        free(queue);
    }
    /* The reduced hypercube: the dilation of the hypercube on the same nodes, measured, beside
     * seed 004's theorem (Corollaries 1 and 2 of sec. 1.3.1: max 2n+1, mean
     * (k + (n+1) 2^n) / (k + 2^n)). */
    char dil[4][40];
    const char *na = format == HR_FORMAT_JSON ? "null" : "-";
    for (int i = 0; i < 4; i++)
        snprintf(dil[i], sizeof dil[i], "%s", na);
    if (t->row == &hr__topo_rh) {
        int dmx;
        double davg;
        int k = t->dims[0], n = t->dims[1];
        if (hr__rh_dilation(t, &dmx, &davg) == 0) {
            snprintf(dil[0], sizeof dil[0], "%d", dmx);
            snprintf(dil[1], sizeof dil[1], "%.4f", davg);
        }
        snprintf(dil[2], sizeof dil[2], "%d", 2 * n + 1);
        snprintf(dil[3], sizeof dil[3], "%.4f",
                 (k + (n + 1.0) * (1 << n)) / (double)(k + (1 << n)));
    }
    char v[8][40];
    snprintf(v[0], sizeof v[0], "%d", p);
    snprintf(v[1], sizeof v[1], "%d", t->nodes - p);
    snprintf(v[2], sizeof v[2], "%d", t->nlinks ? t->nlinks : p * (p - 1));
    snprintf(v[3], sizeof v[3], "%d", dmin);
    snprintf(v[4], sizeof v[4], "%d", dmax);
    snprintf(v[5], sizeof v[5], "%d", diameter);
    snprintf(v[6], sizeof v[6], "%.4f", p > 1 ? sum / ((double)p * (p - 1)) : 0.0);
    if (t->bisection > 0)
        snprintf(v[7], sizeof v[7], "%ld", t->bisection);
    else
        snprintf(v[7], sizeof v[7], format == HR_FORMAT_JSON ? "null" : "-");
    /* links are directed (a cable is two, as the model routes them); the bisection width is
     * in undirected edges (a cable is one), as it is usually given: the names say which. */
    static const char *const names[] = { "topology", "procs", "switches", "directed_links",
                                         "degree_min", "degree_max", "diameter", "avg_distance",
                                         "bisection_edges",
                                         "dilation_max", "dilation_avg", "theorem_max",
                                         "theorem_avg" };
    const char *values[13] = { t->shape, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                               dil[0], dil[1], dil[2], dil[3] };
    static const int numeric[13] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    hr__report_record(out, format, names, values, numeric, 13);
    hr__topo_destroy(t);
    return HR_OK;
}
