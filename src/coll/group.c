/* group.c: processor groups, made from a list or split by colour and key (MPI_Comm_split).
 *
 * A group handle is one member's: its rank, the members' processor ids, and the internal tag its
 * collectives' messages carry, which its members agree on through core/context.c without a
 * message. The key naming a group is what every member computes alike: for a split, the parent's
 * context, how many splits of the parent came before, and the colour; for a list, the list and
 * how many times this member made that list before (every member makes the same groups in the
 * same order, as MPI's communicator creation asks).
 */
#include "core/engine.h"

#include <stdlib.h>
#include <string.h>

#include "coll/group.h"

static hr_group *group_new(hr_proc *p, int size)
{
    hr_group *g = hr_malloc(p, sizeof *g);
    *g = (hr_group){ .owner = p, .size = size, .ctx = -1, .tag = HR__TAG_COLL };
    if (size > 0)
        g->pids = hr_malloc(p, sizeof(int) * (size_t)size);
    return g;
}

static void name_it(hr_proc *p, hr_group *g, const int *key, size_t words)
{
    g->ctx = hr__ctx_id(p, key, words * sizeof *key);
    g->tag = HR__TAG_COLL - 1 - g->ctx;
}

hr_group *hr_world(hr_proc *p)
{
    hr_group **world = (hr_group **)hr__proc_slot(p, HR_SLOT_WORLD);
    if (*world == NULL) {
        *world = group_new(p, 0);
        (*world)->size = hr_nprocs(p);
        (*world)->rank = hr_pid(p);
    }
    return *world;
}

int hr_group_size(const hr_group *g) { return g->size; }
int hr_group_rank(const hr_group *g) { return g->rank; }

int hr_group_pid(const hr_group *g, int rank)
{
    if (rank < 0 || rank >= g->size)
        hr__misuse(g->owner, "hr_group_pid: rank %d is not in a group of %d", rank, g->size);
    return hr__group_pid(g, rank);
}

int hr_group_rank_of(const hr_group *g, int pid)
{
    if (g->pids == NULL)
        return pid >= 0 && pid < g->size ? pid : -1;
    for (int r = 0; r < g->size; r++)
        if (g->pids[r] == pid)
            return r;
    return -1;
}

/* A list's own record of how often p made it, so that the k-th making is one group. */
typedef struct made_list {
    struct made_list *next;
    int               n, times;
    int               pids[];
} made_list;

static int times_made(hr_proc *p, const int *pids, int n)
{
    made_list **at = (made_list **)hr__proc_slot(p, HR_SLOT_GROUPS);
    for (; *at != NULL; at = &(*at)->next)
        if ((*at)->n == n && memcmp((*at)->pids, pids, sizeof(int) * (size_t)n) == 0)
            return (*at)->times++;
    made_list *l = hr_malloc(p, sizeof *l + sizeof(int) * (size_t)n);
    l->next = NULL;
    l->n = n;
    l->times = 1;
    memcpy(l->pids, pids, sizeof(int) * (size_t)n);
    *at = l;
    return 0;
}

hr_group *hr_group_make(hr_proc *p, const int *pids, int n)
{
    int np = hr_nprocs(p), rank = -1;
    if (n < 1 || n > np || pids == NULL)
        hr__misuse(p, "hr_group_make: %d members (1 to %d, from a list)", n, np);
    unsigned char *seen = hr_calloc(p, (size_t)np, 1);
    for (int r = 0; r < n; r++) {
        if (pids[r] < 0 || pids[r] >= np)
            hr__misuse(p, "hr_group_make: member %d is processor %d, which does not exist (p = %d)",
                    r, pids[r], np);
        if (seen[pids[r]]++)
            hr__misuse(p, "hr_group_make: processor %d is listed twice", pids[r]);
        if (pids[r] == hr_pid(p))
            rank = r;
    }
    hr_free(p, seen);
    if (rank < 0)
        return NULL;
    int times = times_made(p, pids, n);
    hr_group *g = group_new(p, n);
    g->rank = rank;
    memcpy(g->pids, pids, sizeof(int) * (size_t)n);
    int *key = hr_malloc(p, sizeof(int) * ((size_t)n + 2));
    key[0] = -2;             /* a list: a split's key begins with its parent's context, >= -1 */
    key[1] = times;
    memcpy(key + 2, pids, sizeof(int) * (size_t)n);
    name_it(p, g, key, (size_t)n + 2);
    hr_free(p, key);
    return g;
}

typedef struct member {
    int key, rank;     /* in the split, and in the parent */
} member;

static int member_cmp(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

hr_group *hr_group_split(hr_proc *p, hr_group *parent, int colour, int key)
{
    if (parent == NULL || parent->owner != p)
        hr__misuse(p, "hr_group_split: the parent is not a group of this processor's");
    if (colour < 0 && colour != HR_UNDEFINED)
        hr__misuse(p, "hr_group_split: colour %d (>= 0, or HR_UNDEFINED for no group)", colour);
    int n = parent->size;
    int mine[2] = { colour, key };
    int *all = hr_malloc(p, sizeof(int) * 2 * (size_t)n);
    hr_group_allgather(p, parent, mine, all, sizeof mine);
    int split = parent->splits++;
    if (colour == HR_UNDEFINED) {
        hr_free(p, all);
        return NULL;
    }
    member *ms = hr_malloc(p, sizeof *ms * (size_t)n);
    int size = 0;
    for (int r = 0; r < n; r++)
        if (all[2 * r] == colour)
            ms[size++] = (member){ all[2 * r + 1], r };
    qsort(ms, (size_t)size, sizeof *ms, member_cmp);   /* by key, then parent rank */
    hr_group *g = group_new(p, size);
    for (int r = 0; r < size; r++) {
        g->pids[r] = hr__group_pid(parent, ms[r].rank);
        if (ms[r].rank == parent->rank)
            g->rank = r;
    }
    int name[3] = { parent->ctx, split, colour };
    name_it(p, g, name, 3);
    hr_free(p, ms);
    hr_free(p, all);
    return g;
}

void hr__group_begin(hr_proc *p, const hr_group *g, const char *call, const char *prep, int root)
{
    if (g == NULL)
        hr__misuse(p, "%s: the group is NULL (this processor is not a member?)", call);
    if (g->owner != p)
        hr__misuse(p, "%s: the group handle is processor %d's, not this one's", call, hr_pid(g->owner));
    if (prep != NULL && (root < 0 || root >= g->size) && g->pids == NULL)
        hr__misuse(p, "%s: root %d does not exist (p = %d)", call, root, g->size);
    if (prep != NULL && (root < 0 || root >= g->size))
        hr__misuse(p, "%s: root %d is not a rank of the group (%d members)", call, root, g->size);
    if (g->pids == NULL && prep != NULL)
        hr__coll_begin(p, g->tag, "%s %s root %d", call, prep, root);
    else if (g->pids == NULL)
        hr__coll_begin(p, g->tag, "%s", call);
    else if (prep != NULL)
        hr__coll_begin(p, g->tag, "%s %s rank %d of a group of %d", call, prep, root, g->size);
    else
        hr__coll_begin(p, g->tag, "%s in a group of %d", call, g->size);
}
