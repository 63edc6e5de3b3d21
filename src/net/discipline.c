/* discipline.c: the table of disciplines, sorted by name. The round rules are in disc_round.c. */
#include "net/discipline.h"

#include <stddef.h>
#include <string.h>
#include <hremu/algorithm.h>
#include <hremu/machine.h>

static const hr_disc disciplines[] = {
    { .name = "arbitrary",
      .summary = "rounds; one random arrival per receiver is received, the others are lost; "
                 "senders learn which after the round (seed 003)",
      .send = HR_SEND_NONE, .rule = hr__rule_arbitrary,
      .traits = HR_DISC_IN_ROUNDS | HR_DISC_LOSES },
    { .name = "async",
      .summary = "non-blocking sends into receive buffers; buffer = bytes makes full buffers block "
                 "senders (seed 002 AC)",
      .send = HR_SEND_COPY, .traits = HR_DISC_BUFFERED },
    { .name = "eager",
      .summary = "sends of up to eager_limit bytes are copied into receive buffers, larger ones "
                 "are rendezvous, as MPI libraries send",
      .send = HR_SEND_EAGER, .traits = HR_DISC_STALLS | HR_DISC_EAGER },
    { .name = "fifo",
      .summary = "rounds; arrivals queue at the receiver, one leaves per round; a sender stalls "
                 "while its message waits (seed 003)",
      .send = HR_SEND_NONE, .rule = hr__rule_fifo,
      .traits = HR_DISC_IN_ROUNDS | HR_DISC_QUEUES | HR_DISC_STALLS },
    { .name = "ocpc",
      .summary = "rounds; a lone arrival is received, two or more at one receiver are all lost "
                 "(OCPC, seed 003)",
      .send = HR_SEND_NONE, .rule = hr__rule_ocpc,
      .traits = HR_DISC_IN_ROUNDS | HR_DISC_LOSES | HR_DISC_DESTROYS },
    { .name = "priority",
      .summary = "rounds; as fifo, but the waiting message of highest priority leaves first "
                 "(seed 003)",
      .send = HR_SEND_NONE, .rule = hr__rule_priority,
      .traits = HR_DISC_IN_ROUNDS | HR_DISC_QUEUES | HR_DISC_PRIORITIES | HR_DISC_STALLS },
    { .name = "sync",
      .summary = "rendezvous: a send completes when the receiver takes it (CM-5 CMMD, seed 001)",
      .send = HR_SEND_RENDEZVOUS, .traits = HR_DISC_RENDEZVOUS | HR_DISC_STALLS },
};
#define NDISC (sizeof disciplines / sizeof disciplines[0])

const hr_disc *hr__discipline_find(const char *name)
{
    for (size_t i = 0; i < NDISC; i++)
        if (strcmp(disciplines[i].name, name) == 0)
            return &disciplines[i];
    return NULL;
}

unsigned hr__discipline_traits(const char *name)
{
    const hr_disc *d = name != NULL ? hr__discipline_find(name) : NULL;
    return d != NULL ? d->traits : 0;
}

const char *hr_discipline_name(int i, const char **summary)
{
    if (i < 0 || (size_t)i >= NDISC)
        return NULL;
    if (summary != NULL)
        *summary = disciplines[i].summary;
    return disciplines[i].name;
}

/* Of needs (HR_NEEDS_* of <hremu/algorithm.h>), those that a discipline of these traits does not
 * meet: the one place that says what each need asks of a discipline. Copied sends are those of
 * a point-to-point discipline in which no sender ever waits for its receiver. */
unsigned hr__discipline_unmet(unsigned traits, unsigned needs)
{
    int rounds = (traits & HR_DISC_IN_ROUNDS) != 0;
    unsigned met = 0;
    if (!rounds)
        met |= HR_NEEDS_P2P;
    if (!rounds && !(traits & (HR_DISC_RENDEZVOUS | HR_DISC_STALLS)))
        met |= HR_NEEDS_COPY_SENDS;
    if (rounds)
        met |= HR_NEEDS_ROUNDS;
    if (rounds && (traits & HR_DISC_QUEUES))
        met |= HR_NEEDS_QUEUES;
    if (rounds && (traits & HR_DISC_PRIORITIES))
        met |= HR_NEEDS_PRIORITIES;
    if (rounds && (traits & HR_DISC_LOSES))
        met |= HR_NEEDS_LOSSES;
    if (rounds && !(traits & HR_DISC_DESTROYS))
        met |= HR_NEEDS_ONE_RECEIVED;
    return needs & ~met;
}

unsigned hr_discipline_unmet(const char *discipline, unsigned needs)
{
    const hr_disc *d = discipline != NULL ? hr__discipline_find(discipline) : NULL;
    return d != NULL ? hr__discipline_unmet(d->traits, needs) : needs;
}
