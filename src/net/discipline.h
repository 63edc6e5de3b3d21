/* discipline.h: contention disciplines, rows in a table.
 *
 * A point-to-point discipline says when a send completes (at once into a buffer, or at the
 * matching receive). Round disciplines (fifo, priority, arbitrary, ocpc) add a resolve operation
 * over one round's arrivals; they are added as rows with their own disc_<name>.c.
 */
#ifndef HREMU_NET_DISCIPLINE_H
#define HREMU_NET_DISCIPLINE_H

typedef enum hr_disc_engine {
    HR_DISC_P2P_ASYNC,     /* sends complete at once; optional bounded receive buffer */
    HR_DISC_P2P_SYNC,      /* sends complete at the matching receive (rendezvous) */
} hr_disc_engine;

typedef struct hr_discipline {
    const char    *name;
    const char    *summary;
    hr_disc_engine engine;
} hr_discipline;

const hr_discipline *hr__discipline_find(const char *name);

#endif
