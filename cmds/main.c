/* SPDX-License-Identifier: MIT */
/* main.c: the spoor command: `spoor <command> [options]`, git-style. */
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "spoor/spoor.h"

static const struct command *const commands[] = {
#define COMMAND(name) &cmd_##name,
#include "command-list.h"
#undef COMMAND
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const char spoor_about[] = "records what a Linux system and its programs do, and turns the "
                           "record into answers";

static void usage(FILE *out)
{
	fprintf(out, "usage: spoor <command> [options] [args]\n\nspoor %s.\n\ncommands:\n",
	        spoor_about);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(out, "\n'spoor help <command>' describes a command's options; 'spoor --version' "
	             "prints the version.\n");
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("spoor %s\n", spoor_version());
		return 0;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "help")) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[2], "--bash-completion")) {
			cmd_bash_completion(stdout, commands, NCOMMANDS);
			return 0;
		}
		/* spoor(1), or spoor-CMD(1): the build makes the pages with this */
		if (!strcmp(argv[2], "--man")) {
			const struct command *cmd = argc > 3 ? find(argv[3]) : NULL;
			if (argc > 3 && !cmd) {
				fprintf(stderr, "spoor: no command '%s'\n", argv[3]);
				return 2;
			}
			return cmd_man_page(stdout, commands, NCOMMANDS, cmd);
		}
		const struct command *cmd = find(argv[2]);
		if (!cmd) {
			fprintf(stderr, "spoor: no command '%s'\n", argv[2]);
			return 2;
		}
		cmd_help(cmd, stdout);
		return 0;
	}
	const struct command *cmd = find(name);
	if (!cmd) {
		fprintf(stderr, "spoor: '%s' is not a spoor command\n", name);
		usage(stderr);
		return 2;
	}
	return cmd->run(cmd, argc - 1, argv + 1);
}
