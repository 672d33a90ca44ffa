/* A sudoku-lab external solver that does no work, to measure the protocol itself
 * (docs/external-solvers.md, "Overhead"): for each run it sends params.lines progress lines,
 * each with the puzzle's givens as its grid (what a real solver's progress line carries), then
 * an unsolved result. Build: cc -O2 -o noop noop.c */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    if (strstr(line, "\"type\":\"hello\"")) {
      printf("{\"type\":\"hello\",\"protocol\":2,\"name\":\"noop\"}\n");
    } else if (strstr(line, "\"type\":\"run\"")) {
      const char *id = strstr(line, "\"run_id\":");
      unsigned long long run_id = id ? strtoull(id + 9, NULL, 10) : 0;
      const char *p = strstr(line, "\"lines\":");
      long lines = p ? strtol(p + 8, NULL, 10) : 0;
      const char *g = strstr(line, "\"givens\":") + 9;
      const char *end = strstr(g, "]]") + 2;
      int len = (int)(end - g);
      for (long k = 1; k <= lines; k++)
        printf("{\"type\":\"progress\",\"run_id\":%llu,\"evaluations\":%ld,\"grid\":%.*s}\n", run_id, k, len, g);
      printf("{\"type\":\"result\",\"run_id\":%llu,\"solved\":false,\"evaluations\":%ld,\"grid\":%.*s}\n", run_id, lines, len, g);
    }
    fflush(stdout);
  }
  free(line);
  return 0;
}
