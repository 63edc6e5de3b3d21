/* topology.c: the table of topologies, sorted by name; each row lives in topo_<name>.c. */
#include "net/topology.h"

#include <stddef.h>
#include <string.h>
#include <hremu/machine.h>

static const hr_topology *const topologies[] = {
    &hr__topo_complete,
};
#define NTOPO (sizeof topologies / sizeof topologies[0])

const hr_topology *hr__topology_find(const char *name)
{
    for (size_t i = 0; i < NTOPO; i++)
        if (strcmp(topologies[i]->name, name) == 0)
            return topologies[i];
    return NULL;
}

const char *hr_topology_name(int i, const char **summary)
{
    if (i < 0 || (size_t)i >= NTOPO)
        return NULL;
    if (summary != NULL)
        *summary = topologies[i]->summary;
    return topologies[i]->name;
}
