/* board.h: hremu --rounds: each round of a row's first run drawn as a board a teacher would
 * put on the blackboard, from the run's round events (machine.h): senders down, receivers
 * across, each message's fate in its cell, the round's counts and the stalled senders. The
 * command's thread only. */
#ifndef HREMU_CLI_BOARD_H
#define HREMU_CLI_BOARD_H

#include <stdio.h>

#include <hremu/machine.h>

/* The most processors a board is drawn for; a larger row gets one line saying so. */
#define HR_BOARD_MAX_PROCS 32

/* Draw m's last run's rounds on out under a line naming the row (`what`); the discipline
 * names what a loss is (ocpc: destroyed). HR_OK or HR_ENOMEM. */
int hr__board_write(FILE *out, const hr_machine *m, const char *what, const char *discipline);

#endif /* HREMU_CLI_BOARD_H */
