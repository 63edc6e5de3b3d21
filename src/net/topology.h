/* topology.h: interconnection topologies, rows in a table with routing operations.
 *
 * A topology knows how many links a message crosses from src to dst (each adds the cost model's
 * hop latency). Link contention along routes comes with the non-complete topologies, each in its
 * own topo_<name>.c file.
 */
#ifndef HREMU_NET_TOPOLOGY_H
#define HREMU_NET_TOPOLOGY_H

typedef struct hr_topology {
    const char *name;
    const char *summary;
    /* Can this topology be built on p processors? NULL if so, else a reason. */
    const char *(*check)(int p);
    /* Links crossed from src to dst; 0 when src == dst. */
    int (*hops)(int p, int src, int dst);
} hr_topology;

const hr_topology *hr__topology_find(const char *name);

extern const hr_topology hr__topo_complete;

#endif
