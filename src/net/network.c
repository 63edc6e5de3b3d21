/* network.c: a machine's link state, made, reset between runs and freed (the route call that
 * uses it is inline in network.h). */
#include "net/network.h"

#include <stdlib.h>
#include <hremu/error.h>

#include "util/sync.h"

int hr__net_init(hr_net *n, const hr_topo *t, const hr_costps *c, int switching)
{
    *n = (hr_net){ .topo = t, .cost = c, .model = hr__link_model_at(switching) };
    HR_ASSERT(n->model != NULL);   /* hr_machine_check refuses other numbers */
    if (!hr__net_shared(t))
        return HR_OK;
    n->free_at = calloc((size_t)t->nlinks, sizeof *n->free_at);
    n->route = malloc((size_t)t->max_route * sizeof *n->route);
    if (n->free_at == NULL || n->route == NULL) {
        hr__net_destroy(n);
        return HR_ENOMEM;
    }
    return HR_OK;
}

void hr__net_reset(hr_net *n)
{
    if (n->free_at != NULL)
        for (int l = 0; l < n->topo->nlinks; l++)
            n->free_at[l] = 0;
}

void hr__net_destroy(hr_net *n)
{
    free(n->free_at);
    free(n->route);
    n->free_at = NULL;
    n->route = NULL;
}
