/* board.c: the --rounds boards (board.h). */
#include "cli/board.h"

#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "net/discipline.h"

/* The round events of a run, in the canonical order (rounds ascending, as resolved). */
typedef struct rounds {
    hr_event *v;
    size_t    n, cap;
    int       failed;
} rounds;

static void keep(void *arg, const hr_event *e)
{
    rounds *r = arg;
    if (e->kind != HR_EV_ROUND || r->failed)
        return;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        hr_event *v = realloc(r->v, cap * sizeof *v);
        if (v == NULL) {
            r->failed = 1;
            return;
        }
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = *e;
}

/* A fate's letter: D delivered, d delivered from the queue it waited in, Q queued, L lost
 * (arbitrary write: another message won), X destroyed (ocpc: a collision). */
static char letter(const hr_event *e, const char *discipline, int was_queued)
{
    if (strcmp(e->fate, "queued") == 0)
        return 'Q';
    if (strcmp(e->fate, "lost") == 0)
        return hr__discipline_traits(discipline) & HR_DISC_DESTROYS ? 'X' : 'L';
    return was_queued ? 'd' : 'D';
}

int hr__board_write(FILE *out, const hr_machine *m, const char *what, const char *discipline)
{
    int p = hr_machine_procs(m);
    fprintf(out, "# %s\n", what);
    if (p > HR_BOARD_MAX_PROCS) {
        fprintf(out, "(%d processors: boards are drawn for at most %d)\n\n", p,
                HR_BOARD_MAX_PROCS);
        return HR_OK;
    }
    rounds r = { 0 };
    if (hr_machine_event_each(m, keep, &r) != HR_OK || r.failed) {
        free(r.v);
        return HR_ENOMEM;
    }
    if (r.n == 0) {
        fputs("(no rounds: the discipline is not a round discipline)\n\n", out);
        free(r.v);
        return HR_OK;
    }
    char *cell = malloc((size_t)p * (size_t)p), *queued = calloc((size_t)p, 1);
    int *waits = malloc((size_t)p * sizeof *waits);   /* a stalled sender's receiver */
    if (cell == NULL || queued == NULL || waits == NULL) {
        free(cell);
        free(queued);
        free(waits);
        free(r.v);
        return HR_ENOMEM;
    }
    for (size_t i = 0; i < r.n;) {
        uint64_t round = r.v[i].round;
        int counts[5] = { 0 };   /* D+d, Q, L, X */
        memset(cell, '.', (size_t)p * (size_t)p);
        for (int s = 0; s < p; s++)   /* still waiting in a queue from an earlier round */
            if (queued[s])
                cell[(size_t)s * p + waits[s]] = 'q';
        for (; i < r.n && r.v[i].round == round; i++) {
            const hr_event *e = &r.v[i];
            char c = letter(e, discipline, queued[e->proc]);
            cell[(size_t)e->proc * p + e->peer] = c;
            queued[e->proc] = c == 'Q';
            waits[e->proc] = e->peer;
            counts[c == 'Q' ? 1 : c == 'L' ? 2 : c == 'X' ? 3 : 0]++;
        }
        char label[32];
        snprintf(label, sizeof label, "round %llu", (unsigned long long)round);
        fprintf(out, "%-11s to:", label);   /* 15 wide, as a row's "  from NN" and spaces */
        for (int j = 0; j < p; j++)
            fprintf(out, " %2d", j);
        fputc('\n', out);
        for (int s = 0; s < p; s++) {
            fprintf(out, "  from %2d      ", s);
            for (int j = 0; j < p; j++)
                fprintf(out, "  %c", cell[(size_t)s * p + j]);
            fputc('\n', out);
        }
        fprintf(out, "  delivered %d, queued %d, lost %d, destroyed %d; stalled:", counts[0],
                counts[1], counts[2], counts[3]);
        int any = 0;
        for (int s = 0; s < p; s++)
            if (queued[s]) {
                fprintf(out, " P%d", s);
                any = 1;
            }
        fputs(any ? "\n\n" : " none\n\n", out);
    }
    fputs("D delivered, d delivered from the queue it waited in, Q queued (its sender stalls), "
          "q still queued, L lost (arbitrary write), X destroyed (ocpc), . no message\n\n", out);
    free(cell);
    free(queued);
    free(waits);
    free(r.v);
    return HR_OK;
}
