/* topology.c: the table of topologies, sorted by name (each row lives in topo_<name>.c), and
 * what every topology shares: making and freeing an instance, its link arrays, the link between
 * two nodes, hop counts. */
#include "net/topology.h"

#include "net/topo_rh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/machine.h>

static const hr_topology *const topologies[] = {
    &hr__topo_complete,
    &hr__topo_fattree,
    &hr__topo_hypercube,
    &hr__topo_mesh,
    &hr__topo_rh,
    &hr__topo_ring,
    &hr__topo_torus,
};
#define NTOPO (sizeof topologies / sizeof topologies[0])

const hr_topology *hr__topology_find(const char *spec, const char **args)
{
    spec += strspn(spec, " \t");
    size_t n = strcspn(spec, " \t");
    for (size_t i = 0; i < NTOPO; i++)
        if (strlen(topologies[i]->name) == n && strncmp(topologies[i]->name, spec, n) == 0) {
            if (args != NULL)
                *args = spec + n + strspn(spec + n, " \t");
            return topologies[i];
        }
    return NULL;
}

int hr__topology_has_links(const char *spec)
{
    const hr_topology *row = hr__topology_find(spec, NULL);
    return row != NULL && !row->no_links;
}

const char *hr_topology_name(int i, const char **summary)
{
    if (i < 0 || (size_t)i >= NTOPO)
        return NULL;
    if (summary != NULL)
        *summary = topologies[i]->summary;
    return topologies[i]->name;
}

const char *hr_topology_syntax(int i)
{
    return i < 0 || (size_t)i >= NTOPO ? NULL : topologies[i]->syntax;
}

int hr_topology_procs(const char *spec, int *p, char *why, size_t len)
{
    const char *args;
    const hr_topology *row = hr__topology_find(spec, &args);
    if (row == NULL) {
        snprintf(why, len, "unknown topology '%.60s'", spec);
        return HR_EINVAL;
    }
    int n = row->procs(args, why, len);
    if (n < 0)
        return HR_EINVAL;
    *p = n;
    return HR_OK;
}

int hr__topo_make(const char *spec, int p, hr_topo **out, char *why, size_t len)
{
    const char *args;
    const hr_topology *row = hr__topology_find(spec, &args);
    if (row == NULL) {
        snprintf(why, len, "unknown topology '%.60s'", spec);
        return -1;
    }
    int fixed = row->procs(args, why, len);
    if (fixed < 0)
        return -1;
    if (p == 0 && fixed == 0) {
        snprintf(why, len, "topology %.60s does not fix p: give procs", spec);
        return -1;
    }
    if (p == 0)
        p = fixed;
    if (fixed > 0 && p != fixed) {
        snprintf(why, len, "topology %.60s needs procs = %d (it is %d)", spec, fixed, p);
        return -1;
    }
    if (p < 1 || p > HR_MAX_PROCS) {
        snprintf(why, len, "topology %.60s: procs must be 1 .. %d (it is %d)", spec,
                 HR_MAX_PROCS, p);
        return -1;
    }
    hr_topo *t = calloc(1, sizeof *t);
    if (t == NULL) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    t->row = row;
    if (row->make(t, args, p, why, len) != 0) {
        hr__topo_destroy(t);
        return -1;
    }
    if (t->nodes == 0)
        t->nodes = t->p;
    *out = t;
    return 0;
}

void hr__topo_destroy(hr_topo *t)
{
    if (t == NULL)
        return;
    free(t->first);
    free(t->from);
    free(t->to);
    free(t->bw);
    free(t);
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int hr__topo_links(hr_topo *t, int (*nbrs)(const hr_topo *t, int u, int *out))
{
    if (t->nodes == 0)
        t->nodes = t->p;
    int nn = t->nodes;
    int *buf = malloc((size_t)nn * sizeof *buf);
    t->first = malloc(((size_t)nn + 1) * sizeof *t->first);
    if (buf == NULL || t->first == NULL)
        goto fail;
    /* Two passes: count, then fill; neighbours sorted so link ids follow the node they reach. */
    size_t total = 0;
    for (int u = 0; u < nn; u++) {
        t->first[u] = (int)total;
        total += (size_t)nbrs(t, u, buf);
    }
    t->first[nn] = (int)total;
    t->nlinks = (int)total;
    t->from = malloc((total ? total : 1) * sizeof *t->from);
    t->to = malloc((total ? total : 1) * sizeof *t->to);
    if (t->from == NULL || t->to == NULL)
        goto fail;
    for (int u = 0; u < nn; u++) {
        int d = nbrs(t, u, buf);
        qsort(buf, (size_t)d, sizeof *buf, by_int);
        for (int k = 0; k < d; k++) {
            t->from[t->first[u] + k] = u;
            t->to[t->first[u] + k] = buf[k];
        }
    }
    free(buf);
    return 0;
fail:
    free(buf);
    return -1;
}

int hr__topo_route_hops(const hr_topo *t, int src, int dst)
{
    if (t->hops != NULL)
        return t->hops(t, src, dst);
    int buf[64];
    int *links = t->max_route <= 64 ? buf : malloc((size_t)t->max_route * sizeof *links);
    if (links == NULL)
        return -1;
    int h = t->route(t, src, dst, links);
    if (links != buf)
        free(links);
    return h;
}

int hr__topo_args(const char *args, char sep, int *v, int max, char *why, size_t len)
{
    const char *s = args;
    int n = 0;
    while (*s != '\0') {
        if (n == max) {
            snprintf(why, len, "'%.60s': more than %d numbers", args, max);
            return -1;
        }
        if (*s < '0' || *s > '9') {
            snprintf(why, len, "'%.60s': expected a whole number at '%.20s'", args, s);
            return -1;
        }
        long x = 0;
        while (*s >= '0' && *s <= '9' && x <= HR_MAX_PROCS)
            x = x * 10 + (*s++ - '0');
        if (x > HR_MAX_PROCS) {
            snprintf(why, len, "'%.60s': a number above %d", args, HR_MAX_PROCS);
            return -1;
        }
        v[n++] = (int)x;
        if (*s == sep && s[1] != '\0')
            s++;
        else if (*s != '\0') {
            snprintf(why, len, "'%.60s': unexpected '%.20s'", args, s);
            return -1;
        }
        if (sep == ' ')
            s += strspn(s, " ");
    }
    return n;
}

void hr__topo_bfs(const hr_topo *t, int src, int *dist, int *queue)
{
    int head = 0, tail = 0;
    for (int u = 0; u < t->nodes; u++)
        dist[u] = -1;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int u = queue[head++];
        for (int l = t->first[u]; l < t->first[u + 1]; l++)
            if (dist[t->to[l]] < 0) {
                dist[t->to[l]] = dist[u] + 1;
                queue[tail++] = t->to[l];
            }
    }
}
