/* group.h: processor groups, the collectives' view of them (coll/group.c). */
#ifndef HREMU_COLL_GROUP_H
#define HREMU_COLL_GROUP_H

#include <hremu/hremu.h>

/* One member's handle of a group: in its owner's memory, for this run. */
struct hr_group {
    hr_proc *owner;
    int      size, rank;  /* members, and the owner's rank among them */
    int      tag;         /* its collectives' internal tag: HR__TAG_COLL for the world */
    int      ctx;         /* its context id (core/context.c), -1 for the world */
    int      splits;      /* hr_group_split calls on it so far: part of the children's keys */
    int     *pids;        /* rank -> processor id; NULL for the world (rank = pid) */
};

static inline int hr__group_pid(const hr_group *g, int rank)
{
    return g->pids != NULL ? g->pids[rank] : rank;
}

/* Begin a collective call on g: fail p unless g is p's own handle and root (if >= 0, with
 * `prep` "from" or "to") is a rank of g; count the step and name it for a deadlock report, as
 * "hr_bcast from root 0" on the world or "hr_group_bcast from rank 0 of a group of 4". */
void hr__group_begin(hr_proc *p, const hr_group *g, const char *call, const char *prep, int root);

#endif
