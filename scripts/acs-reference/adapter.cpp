// sudoku-lab protocol v2 adapter (docs/external-solvers.md) around the ant colony system of
// Lloyd & Amos (IEEE Transactions on Games 2020, arXiv 1805.03545), as published by its authors
// (their repository sudoku_acs). Written for sudoku-lab; it includes their headers and calls
// their classes, and contains none of their code. build.sh checks their sources out of a git
// directory and compiles them, unmodified, with this file; see build.sh's header for why the
// run loop is ours and which of their members it uses.
//
// One process serves run after run (persistent mode): for each run message it builds a fresh
// SudokuAntSystem (their class, their constructor arguments as in their solvermain.cpp:
// pher0 = 1 / cells), seeds its std::mt19937 from the run's seed, and runs colony iterations
// until a solution or the budget. One evaluation = one ant's construction of a whole grid; one
// generation = one colony iteration (ants constructions). The result carries `cpu_ms`, the
// process CPU time of the run (CLOCK_PROCESS_CPUTIME_ID, from the run message parsed to the
// result written), a field the runner ignores until the protocol defines it.
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "board.h"
#include "sudokuant.h"
#include "sudokuantsystem.h"

// ---------------------------------------------------------------------------------------------
// Their SudokuAntSystem keeps its generator, pheromone bookkeeping and per-iteration steps
// private, and its Solve() stops on wall time only. The members the run loop below needs are
// reached through pointers to members named in explicit template instantiations, where the C++
// standard does not check access ([temp.spec.general]/6 in C++20, [temp.explicit]/12 in
// C++11): no change to their headers or sources, no #define of keywords.
template <typename Tag, typename Tag::type Member>
struct Reach {
  friend typename Tag::type member(Tag) { return Member; }
};
#define REACH(TAG, TYPE, NAME)                 \
  struct TAG {                                 \
    using type = TYPE;                         \
    friend type member(TAG);                   \
  };                                           \
  template struct Reach<TAG, &SudokuAntSystem::NAME>;

using VoidIntInt = void (SudokuAntSystem::*)(int, int);
using VoidNone = void (SudokuAntSystem::*)();
using FloatInt = float (SudokuAntSystem::*)(int);
REACH(RandGenOf, std::mt19937 SudokuAntSystem::*, randGen)
REACH(AntsOf, std::vector<SudokuAnt *> SudokuAntSystem::*, antList)
REACH(BestSolOf, Board SudokuAntSystem::*, bestSol)
REACH(BestPherOf, float SudokuAntSystem::*, bestPher)
REACH(BestEvapOf, float SudokuAntSystem::*, bestEvap)
REACH(NumCellsOf, int SudokuAntSystem::*, numCells)
REACH(InitPheromoneOf, VoidIntInt, InitPheromone)
REACH(ClearPheromoneOf, VoidNone, ClearPheromone)
REACH(UpdatePheromoneOf, VoidNone, UpdatePheromone)
REACH(PherAddOf, FloatInt, PherAdd)

// ---------------------------------------------------------------------------------------------
// A small JSON reader: enough for the runner's messages (objects, arrays, numbers kept as their
// text so that a 64-bit seed is exact, strings with escapes, true/false/null).
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  std::string text;  // a number's digits or a string's value
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> fields;
  const Json *get(const char *key) const {
    for (const auto &f : fields)
      if (f.first == key) return &f.second;
    return nullptr;
  }
};

struct JsonError {
  std::string what;
};

class JsonReader {
  const std::string &s;
  size_t i = 0;
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  }
  [[noreturn]] void fail(const char *what) {
    throw JsonError{std::string(what) + " at byte " + std::to_string(i)};
  }
  void expect(char c) {
    ws();
    if (i >= s.size() || s[i] != c) fail("unexpected character");
    ++i;
  }
  std::string str() {
    expect('"');
    std::string out;
    while (true) {
      if (i >= s.size()) fail("unterminated string");
      char c = s[i++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i >= s.size()) fail("unterminated escape");
      char e = s[i++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {  // kept as '?': no field this adapter reads needs it
          if (i + 4 > s.size()) fail("short \\u escape");
          i += 4;
          out += '?';
          break;
        }
        default: fail("bad escape");
      }
    }
  }

 public:
  explicit JsonReader(const std::string &text) : s(text) {}
  Json value(int depth = 0) {
    if (depth > 64) fail("nested too deeply");
    ws();
    if (i >= s.size()) fail("unexpected end");
    Json v;
    char c = s[i];
    if (c == '{') {
      v.kind = Json::Object;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') {
        ++i;
        return v;
      }
      while (true) {
        std::string k = str();
        expect(':');
        v.fields.emplace_back(k, value(depth + 1));
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.kind = Json::Array;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') {
        ++i;
        return v;
      }
      while (true) {
        v.items.push_back(value(depth + 1));
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.kind = Json::String;
      v.text = str();
      return v;
    }
    if (s.compare(i, 4, "true") == 0) {
      i += 4;
      v.kind = Json::Bool;
      v.b = true;
      return v;
    }
    if (s.compare(i, 5, "false") == 0) {
      i += 5;
      v.kind = Json::Bool;
      return v;
    }
    if (s.compare(i, 4, "null") == 0) {
      i += 4;
      return v;
    }
    size_t start = i;
    while (i < s.size() && (isdigit((unsigned char)s[i]) || s[i] == '-' || s[i] == '+' ||
                            s[i] == '.' || s[i] == 'e' || s[i] == 'E'))
      ++i;
    if (i == start) fail("unexpected character");
    v.kind = Json::Number;
    v.text = s.substr(start, i - start);
    return v;
  }
  void end() {
    ws();
    if (i != s.size()) fail("trailing characters");
  }
};

struct BadRun {
  std::string what;
};

static const Json &field(const Json &obj, const char *key) {
  const Json *v = obj.get(key);
  if (v == nullptr) throw BadRun{std::string("missing field ") + key};
  return *v;
}

static uint64_t as_u64(const Json &v, const char *what) {
  if (v.kind != Json::Number || v.text.empty() || v.text[0] == '-')
    throw BadRun{std::string(what) + " is not a non-negative integer"};
  errno = 0;
  char *end = nullptr;
  unsigned long long x = strtoull(v.text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') throw BadRun{std::string(what) + " is not a 64-bit integer"};
  return (uint64_t)x;
}

static double as_f64(const Json &v, const char *what) {
  if (v.kind != Json::Number) throw BadRun{std::string(what) + " is not a number"};
  return strtod(v.text.c_str(), nullptr);
}

// ---------------------------------------------------------------------------------------------
// The puzzle in their string format (Board(const string&)): '.' for a blank; order 3: '1'..'9';
// order 4: '0'..'9' for 1..10 and 'a'..'f' for 11..16; order 5: 'a'..'y' for 1..25.
static std::string puzzle_string(const Json &puzzle, int &n) {
  n = (int)as_u64(field(puzzle, "order"), "order");
  int br = (int)as_u64(field(puzzle, "box_rows"), "box_rows");
  int bc = (int)as_u64(field(puzzle, "box_cols"), "box_cols");
  if (br != bc || br < 3 || br > 5 || br * bc != n)
    throw BadRun{"the reference handles square boxes of order 3, 4 and 5 only (9x9, 16x16, "
                 "25x25); got " +
                 std::to_string(n) + "x" + std::to_string(n) + " with " + std::to_string(br) +
                 "x" + std::to_string(bc) + " boxes"};
  const Json &g = field(puzzle, "givens");
  if (g.kind != Json::Array || (int)g.items.size() != n) throw BadRun{"givens: wrong row count"};
  std::string out;
  for (const Json &row : g.items) {
    if (row.kind != Json::Array || (int)row.items.size() != n)
      throw BadRun{"givens: wrong row length"};
    for (const Json &cell : row.items) {
      int v = (int)as_u64(cell, "a given");
      if (v > n) throw BadRun{"a given above the order"};
      if (v == 0)
        out += '.';
      else if (br == 3)
        out += (char)('0' + v);
      else if (br == 4)
        out += (char)(v <= 10 ? '0' + v - 1 : 'a' + v - 11);
      else
        out += (char)('a' + v - 1);
    }
  }
  return out;
}

static double cpu_ms_now() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct Params {
  int ants = 10;     // their solvermain.cpp defaults
  float q0 = 0.9f;
  float rho = 0.9f;
  float evap = 0.005f;
};

static Params read_params(const Json &p) {
  Params out;
  if (p.kind != Json::Object) throw BadRun{"params is not a table"};
  for (const auto &f : p.fields) {
    if (f.first == "ants") {
      uint64_t a = as_u64(f.second, "params.ants");
      if (a < 1 || a > 100000) throw BadRun{"params.ants must be 1..100000"};
      out.ants = (int)a;
    } else if (f.first == "q0") {
      out.q0 = (float)as_f64(f.second, "params.q0");
    } else if (f.first == "rho") {
      out.rho = (float)as_f64(f.second, "params.rho");
    } else if (f.first == "evap") {
      out.evap = (float)as_f64(f.second, "params.evap");
    } else {
      throw BadRun{"unknown param '" + f.first + "' (known: ants, q0, rho, evap)"};
    }
  }
  return out;
}

// One run: their classes driven iteration by iteration, statement for statement as the body
// of their SudokuAntSystem::Solve (same calls, same order, same draws from the same generator),
// with the wall-clock check replaced by the iteration budget.
static void run(const Json &msg) {
  double cpu0 = cpu_ms_now();
  uint64_t run_id = as_u64(field(msg, "run_id"), "run_id");
  uint64_t seed = as_u64(field(msg, "seed"), "seed");
  int n = 0;
  std::string text = puzzle_string(field(msg, "puzzle"), n);
  const Json &budget = field(msg, "budget");
  const Json &me = field(budget, "max_evaluations");
  const Json &mg = field(budget, "max_generations");
  const Json *params = msg.get("params");
  Params par = params ? read_params(*params) : Params();
  if (me.kind == Json::Null && mg.kind == Json::Null)
    throw BadRun{"the adapter needs max_evaluations or max_generations"};
  uint64_t max_iters = UINT64_MAX;
  if (me.kind != Json::Null) max_iters = as_u64(me, "max_evaluations") / (uint64_t)par.ants;
  if (mg.kind != Json::Null) {
    uint64_t g = as_u64(mg, "max_generations");
    if (g < max_iters) max_iters = g;
  }

  Board puzzle(text);
  const int cells = puzzle.CellCount();
  // As their solvermain.cpp: pher0 = 1 / (number of cells).
  std::unique_ptr<SudokuAntSystem> sys(
      new SudokuAntSystem(par.ants, par.q0, par.rho, 1.0f / cells, par.evap));
  std::mt19937 &gen = (*sys).*member(RandGenOf());
  // Their constructor seeds from std::random_device; we reseed from all 64 bits of the run's
  // seed (two 32-bit words through std::seed_seq).
  std::seed_seq words{(uint32_t)(seed & 0xffffffffu), (uint32_t)(seed >> 32)};
  gen.seed(words);
  std::vector<SudokuAnt *> &ants = (*sys).*member(AntsOf());
  Board &best_sol = (*sys).*member(BestSolOf());
  float &best_pher = (*sys).*member(BestPherOf());
  const float best_evap = (*sys).*member(BestEvapOf());

  // --- the body of their Solve(), the timer check replaced by the budget ---
  uint64_t iter = 0;
  bool solved = false;
  best_pher = 0.0f;
  ((*sys).*member(InitPheromoneOf()))(puzzle.CellCount(), puzzle.GetNumUnits());
  const int num_cells = (*sys).*member(NumCellsOf());
  while (!solved && iter < max_iters) {
    std::uniform_int_distribution<int> dist(0, puzzle.CellCount() - 1);
    for (auto a : ants) a->InitSolution(puzzle, dist(gen));
    for (int i = 0; i < puzzle.CellCount(); i++)
      for (auto a : ants) a->StepSolution();
    int i_best = 0;
    int best_val = 0;
    for (unsigned int i = 0; i < ants.size(); i++) {
      if (ants[i]->NumCellsFilled() > best_val) {
        best_val = ants[i]->NumCellsFilled();
        i_best = i;
      }
    }
    float pher_to_add = ((*sys).*member(PherAddOf()))(best_val);
    if (pher_to_add > best_pher) {
      best_sol.Copy(ants[i_best]->GetSolution());
      best_pher = pher_to_add;
      if (best_val == num_cells) solved = true;
    }
    ((*sys).*member(UpdatePheromoneOf()))();
    best_pher *= (1.0f - best_evap);
    ++iter;
  }
  ((*sys).*member(ClearPheromoneOf()))();
  // --- end of their loop ---

  // Their solvermain.cpp checks a claimed solution with Board::CheckSolution and reports a
  // failure when it does not pass; so do we (and say so on stderr).
  const bool have_best = iter > 0;
  bool valid = solved && puzzle.CheckSolution(best_sol);
  if (solved && !valid)
    fprintf(stderr, "acs-reference: the colony stopped on a grid their CheckSolution rejects "
                    "(iteration %" PRIu64 "); reported as unsolved, as their main does\n", iter);
  const Board &shown = have_best ? best_sol : puzzle;
  std::string grid = "[";
  for (int r = 0; r < n; r++) {
    grid += r ? ",[" : "[";
    for (int c = 0; c < n; c++) {
      const ValueSet &v = shown.GetCell(r * n + c);
      int x = (!v.Empty() && v.Fixed()) ? v.Index() + 1 : 0;
      if (c) grid += ',';
      grid += std::to_string(x);
    }
    grid += ']';
  }
  grid += ']';
  double cpu_ms = cpu_ms_now() - cpu0;
  printf("{\"type\":\"result\",\"run_id\":%" PRIu64 ",\"solved\":%s,\"evaluations\":%" PRIu64
         ",\"generations\":%" PRIu64 ",\"cpu_ms\":%.3f,\"grid\":%s}\n",
         run_id, valid ? "true" : "false", iter * (uint64_t)par.ants, iter, cpu_ms,
         grid.c_str());
  fflush(stdout);
}

int main() {
  std::ios::sync_with_stdio(true);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    try {
      JsonReader reader(line);
      Json msg = reader.value();
      reader.end();
      const Json *type = msg.get("type");
      if (type == nullptr || type->kind != Json::String) throw BadRun{"a message without type"};
      if (type->text == "hello") {
        printf("{\"type\":\"hello\",\"protocol\":2,\"name\":\"sudoku_acs-reference\"}\n");
        fflush(stdout);
      } else if (type->text == "run") {
        run(msg);
      } else {
        throw BadRun{"unknown message type '" + type->text + "'"};
      }
    } catch (const JsonError &e) {
      fprintf(stderr, "acs-reference: unreadable message: %s\n", e.what.c_str());
      return 2;
    } catch (const BadRun &e) {
      fprintf(stderr, "acs-reference: %s\n", e.what.c_str());
      return 2;
    }
  }
  return 0;
}
