/* context.c: the contexts of processor groups. A group's collectives carry a tag of their own,
 * so that groups sharing members never take each other's messages, whatever order their members
 * call them in. The tag must be agreed by every member without a message: each member names the
 * group by a key that every member computes alike (coll/group.c: the parent's context, how many
 * splits of it came before, the colour; or the list of members and how many times that list was
 * made before), and the first lookup of a key hands out the next id. Which member looks first,
 * and so which id a group gets, depends on the thread schedule; the id only tells messages apart,
 * so no model figure depends on it. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

#include "util/sync.h"

typedef struct ctx_key {
    size_t        len;
    int           id;
    unsigned char bytes[];
} ctx_key;

struct hr_ctx_table {
    ctx_key **slot;      /* open addressing, cap a power of two */
    size_t    cap, n;
};

static uint64_t fnv1a(const void *key, size_t len)
{
    const unsigned char *b = key;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

static int grow(hr_ctx_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 64;
    ctx_key **slot = calloc(cap, sizeof *slot);
    if (slot == NULL)
        return HR_ENOMEM;
    for (size_t i = 0; i < t->cap; i++) {
        ctx_key *k = t->slot[i];
        if (k == NULL)
            continue;
        size_t at = fnv1a(k->bytes, k->len) & (cap - 1);
        while (slot[at] != NULL)
            at = (at + 1) & (cap - 1);
        slot[at] = k;
    }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return HR_OK;
}

int hr__ctx_id(hr_proc *p, const void *key, size_t len)
{
    hr_machine *m = p->m;
    int id = -1;
    hr__mutex_lock(&m->ctx_lock);
    hr_ctx_table *t = m->ctx;
    if (t == NULL && (t = m->ctx = calloc(1, sizeof *t)) == NULL)
        goto out;
    if (2 * (t->n + 1) > t->cap && grow(t) != HR_OK)
        goto out;
    size_t at = fnv1a(key, len) & (t->cap - 1);
    for (; t->slot[at] != NULL; at = (at + 1) & (t->cap - 1)) {
        const ctx_key *k = t->slot[at];
        if (k->len == len && memcmp(k->bytes, key, len) == 0) {
            id = k->id;
            goto out;
        }
    }
    ctx_key *k = malloc(sizeof *k + len);
    if (k == NULL)
        goto out;
    k->len = len;
    k->id = id = (int)t->n++;
    memcpy(k->bytes, key, len);
    t->slot[at] = k;
out:
    hr__mutex_unlock(&m->ctx_lock);
    if (id < 0)
        hr_fail(p, "out of memory naming a group");
    if (id > INT32_MAX / 2)
        hr_fail(p, "more than %d groups in one run", INT32_MAX / 2);
    return id;
}

void hr__ctx_reset(hr_machine *m)
{
    hr_ctx_table *t = m->ctx;
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->cap; i++)
        free(t->slot[i]);
    free(t->slot);
    free(t);
    m->ctx = NULL;
}
