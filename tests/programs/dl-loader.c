/* SPDX-License-Identifier: MIT */
/* dl-loader.c: dlopen()s a provider library twice (events registered on load, unregistered
 * on dlclose), emitting from it each time. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	for (int g = 1; g <= 2; g++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		void (*run)(int) = (void (*)(int)) dlsym(h, "plugin_run");
		if (!run)
			return 1;
		run(g);
		run(g);
		dlclose(h);
	}
	return 0;
}
