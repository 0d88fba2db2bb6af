/* SPDX-License-Identifier: MIT */
/*
 * command-list.h: the spoor command's subcommands, in `spoor help`'s order, one
 * COMMAND(NAME) a line for the const struct command cmd_NAME that cmds/cmd-NAME.c defines
 * (a '-' of the command's name an '_' in NAME: gen_tp, `spoor gen-tp`).
 * command.h declares them from it, main.c's table lists them from it, and cmds/meson.build
 * reads it for the man pages it builds and installs: a command added here is in all three.
 */
COMMAND(record)
COMMAND(dump)
COMMAND(stats)
COMMAND(graph)
COMMAND(list)
COMMAND(irq)
COMMAND(sched)
COMMAND(disk)
COMMAND(syscalls)
COMMAND(analyze)
COMMAND(export)
COMMAND(convert)
COMMAND(script)
COMMAND(sql)
COMMAND(view)
COMMAND(watch)
COMMAND(daemon)
COMMAND(session)
COMMAND(gen_tp)
