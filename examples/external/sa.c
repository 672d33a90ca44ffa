/* A sudoku-lab external solver in C (protocol v2, docs/external-solvers.md): the simulated
 * annealing of sa.py (after Lewis 2007), C99 + POSIX getline, no libraries. Each box holds a
 * permutation of its values; a move swaps two free cells of one box; the cost is the values
 * missing from rows and columns; a generation is a Markov chain of (free cells)^2 moves; the
 * temperature starts at the spread of the cost over 100 random neighbours, falls by `alpha`
 * per chain and goes back to its start after `reheat` chains in a row that did not lower the
 * current cost (sudoku-lab's lewis-sa defaults).
 * The runner's messages are read by key (enough for the runner's own output; a solver of
 * yours would use a JSON library). Build: cc -O2 -o sa sa.c -lm */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rs;
static unsigned long long next(void) { /* splitmix64 */
  unsigned long long z = (rs += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static double unif(void) { return (next() >> 11) * (1.0 / 9007199254740992.0); }
static int below(int k) { return (int)(next() % (unsigned long long)k); }

/* The number after "key": in s (a default when absent or null). */
static double num(const char *s, const char *key, double dflt) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(s, pat);
  if (!p) return dflt;
  p += strlen(pat);
  while (*p == ' ') p++;
  return strncmp(p, "null", 4) == 0 ? dflt : strtod(p, NULL);
}

/* The run's id ("run_id"), echoed in every progress and result line. */
static unsigned long long run_id;
static unsigned long long id_of(const char *s) {
  const char *p = strstr(s, "\"run_id\":");
  return p ? strtoull(p + 9, NULL, 10) : 0;
}

static int n, g[4096], fr[64][64], nf[64], movable[64], nm;
static int missing(int unit, int is_col) { /* values missing from a row or column */
  unsigned long long seen = 0;
  for (int k = 0; k < n; k++) seen |= 1ULL << g[is_col ? k * n + unit : unit * n + k];
  return n - __builtin_popcountll(seen & ~1ULL);
}
static int swap_delta(int a, int c) { /* swap two cells of a box; the change of the cost */
  int ra = a / n, rc = c / n, ca = a % n, cc = c % n, before, after, t;
  before = missing(ra, 0) + (rc != ra ? missing(rc, 0) : 0) + missing(ca, 1) + (cc != ca ? missing(cc, 1) : 0);
  t = g[a], g[a] = g[c], g[c] = t;
  after = missing(ra, 0) + (rc != ra ? missing(rc, 0) : 0) + missing(ca, 1) + (cc != ca ? missing(cc, 1) : 0);
  return after - before;
}
static void pick(int *a, int *c) {
  int b = movable[below(nm)], i = below(nf[b]), j = below(nf[b] - 1);
  *a = fr[b][i], *c = fr[b][j >= i ? j + 1 : j];
}
static void grid_json(char *out) {
  char *o = out + sprintf(out, "[");
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++)
      o += sprintf(o, "%s%d%s", c ? "," : "[", g[r * n + c], c == n - 1 ? (r == n - 1 ? "]" : "],") : "");
  sprintf(o, "]");
}
static char out[65536];

static void solve(const char *msg) {
  n = (int)num(msg, "order", 9);
  int br = (int)num(msg, "box_rows", 3), bc = (int)num(msg, "box_cols", 3), free_cells = 0;
  const char *s = strstr(msg, "\"seed\":");
  rs = s ? strtoull(s + 7, NULL, 10) : 0;
  double max_e = num(msg, "max_evaluations", INFINITY), max_g = num(msg, "max_generations", INFINITY);
  double alpha = num(msg, "alpha", 0.99), reheat = num(msg, "reheat", 20);
  const char *p = strstr(msg, "\"givens\":") + 9;
  for (int k = 0; k < n * n; k++) { /* the givens, row by row */
    while (*p < '0' || *p > '9') p++;
    g[k] = (int)strtol(p, (char **)&p, 10);
  }
  nm = 0;
  for (int b = 0; b < n; b++) { /* fill each box with its missing values, shuffled */
    int vals[64], nv = 0, used[65] = {0}, r0 = b / (n / bc) * br, c0 = b % (n / bc) * bc;
    nf[b] = 0;
    for (int i = 0; i < br; i++)
      for (int j = 0; j < bc; j++) {
        int cell = (r0 + i) * n + c0 + j;
        if (g[cell]) used[g[cell]] = 1; else fr[b][nf[b]++] = cell;
      }
    for (int v = 1; v <= n; v++) if (!used[v]) vals[nv++] = v;
    for (int i = nv - 1; i > 0; i--) { int j = below(i + 1), t = vals[i]; vals[i] = vals[j], vals[j] = t; }
    for (int i = 0; i < nf[b]; i++) g[fr[b][i]] = vals[i];
    if (nf[b] > 1) movable[nm++] = b;
    free_cells += nf[b];
  }
  int cost = 0, a, c;
  for (int u = 0; u < n; u++) cost += missing(u, 0) + missing(u, 1);
  double sum = 0, sq = 0, t0, t;
  for (int k = 0; nm && k < 100; k++) { /* T0: the spread of the cost over neighbours */
    pick(&a, &c);
    double x = cost + swap_delta(a, c);
    swap_delta(a, c);
    sum += x, sq += x * x;
  }
  t0 = t = fmax(sqrt(fmax(sq / 100 - (sum / 100) * (sum / 100), 0)), 0.01);
  double chain = num(msg, "chain", (double)free_cells * free_cells);
  long long evals = 0, gens = 0, stale = 0, best = cost;
  while (cost > 0 && nm && evals < max_e && gens < max_g) {
    int start = cost;
    for (long long m = 0; m < chain && evals < max_e && cost > 0; m++) {
      pick(&a, &c);
      int delta = swap_delta(a, c);
      evals++;
      if (delta <= 0 || unif() < exp(-delta / t)) {
        cost += delta;
        if (cost < best) {
          best = cost;
          grid_json(out);
          printf("{\"type\":\"progress\",\"run_id\":%llu,\"evaluations\":%lld,\"generations\":%lld,\"grid\":%s}\n", run_id, evals, gens, out);
        }
      } else swap_delta(a, c);
    }
    gens++, t *= alpha;
    stale = cost < start ? 0 : stale + 1; /* a chain that lowered the current cost */
    if (stale >= reheat) t = t0, stale = 0;
  }
  grid_json(out);
  printf("{\"type\":\"result\",\"run_id\":%llu,\"solved\":%s,\"evaluations\":%lld,\"generations\":%lld,\"grid\":%s}\n",
         run_id, cost == 0 ? "true" : "false", evals, gens, out);
  fflush(stdout);
}

int main(void) {
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    if (strstr(line, "\"type\":\"hello\"")) {
      printf("{\"type\":\"hello\",\"protocol\":2,\"name\":\"c-sa\"}\n");
      fflush(stdout);
    } else if (strstr(line, "\"type\":\"run\"")) {
      run_id = id_of(line);
      solve(line);
    }
  }
  free(line);
  return 0;
}
