/* Subcommands of the `tridi` command.  Each takes argv with argv[0] the
 * subcommand name and returns the process exit status. */
#ifndef TRIDI_TOOLS_COMMANDS_H
#define TRIDI_TOOLS_COMMANDS_H

/* Exit statuses shared by all subcommands. */
#define TRIDI_EXIT_OK 0
#define TRIDI_EXIT_FAIL 1  /* a verification failure (bench) or a failed solve */
#define TRIDI_EXIT_USAGE 2 /* bad command line, or an unavailable backend */

int tridi_cmd_info(int argc, char **argv);
int tridi_cmd_bench(int argc, char **argv);
int tridi_cmd_solve(int argc, char **argv);
int tridi_cmd_accuracy(int argc, char **argv); /* tools/accuracy.c */
int tridi_cmd_ab(int argc, char **argv);       /* bench/tuning/ab_cpu.c, TRIDI_CPU_TUNING builds */

#endif
