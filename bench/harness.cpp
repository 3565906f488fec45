// run_cases (verify, warm up, burst and sustained timing against the in-run reference) and the
// three reports: a text table, JSON and an SVG bar chart of % of reference (harness.hpp).
#include "bench/harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <unistd.h>  // environ

#include "support/cuda_check.hpp"
#include "tessera/tools/xml.hpp"

namespace tessera::bench {

// CUDA checks, device buffers and the cuBLAS reference with its tolerance: tests/support/.
using test::check;

namespace {

struct Timing {
  double median_ms = 0, best_ms = 0;
};

// CUDA events, destroyed with the object.
struct Events {
  std::vector<cudaEvent_t> e;
  explicit Events(std::size_t n) : e(n) {
    for (auto& x : e) check(cudaEventCreate(&x), "cudaEventCreate");
  }
  ~Events() {
    for (auto x : e) cudaEventDestroy(x);
  }
  Events(Events const&) = delete;
  Events& operator=(Events const&) = delete;
  float ms(std::size_t from, std::size_t to) const {
    float t = 0;
    check(cudaEventElapsedTime(&t, e[from], e[to]), "cudaEventElapsedTime");
    return t;
  }
};

// One sample: `iters` back-to-back launches of f, the per-launch time in ms.
double sample_launches(std::function<void(cudaStream_t)> const& f, cudaStream_t s, int iters, Events& ev) {
  check(cudaEventRecord(ev.e[0], s), "cudaEventRecord");
  for (int i = 0; i < iters; ++i) f(s);
  check(cudaEventRecord(ev.e[1], s), "cudaEventRecord");
  check(cudaEventSynchronize(ev.e[1]), "cudaEventSynchronize");
  return double(ev.ms(0, 1)) / iters;
}

Timing summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  Timing t;
  std::size_t n = samples.size();
  t.median_ms = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  t.best_ms = samples.front();
  return t;
}

// `repeats` samples of `iters` back-to-back launches each, per-launch time = sample / iters.
Timing time_launches(std::function<void(cudaStream_t)> const& f, cudaStream_t s, int repeats, int iters) {
  Events ev(2);
  std::vector<double> samples;
  for (int r = 0; r < repeats; ++r) samples.push_back(sample_launches(f, s, iters, ev));
  check(cudaGetLastError(), "a timed launch");
  return summarize(std::move(samples));
}

// The launchers a case is timed with: the kernel, its reference, then each further reference.
std::vector<std::function<void(cudaStream_t)> const*> timed_launchers(Case const& c) {
  std::vector<std::function<void(cudaStream_t)> const*> f = {&c.run, &c.reference};
  for (NamedReference const& r : c.also_against) f.push_back(&r.run);
  return f;
}

// Burst with references: `repeats` samples of each launcher (kernel, reference, further references),
// in turn forwards on even repeats and backwards on odd ones (K R R K ..., K R S S R K ...), so that
// none is always timed first (on the cooler GPU) nor always last. With rest_ms > 0 each sample
// starts after that long idle (the GPU's clock and power back at rest). One Timing per launcher.
std::vector<Timing> time_burst(Case const& c, cudaStream_t s, int repeats, int iters, int rest_ms) {
  auto const f = timed_launchers(c);
  Events ev(2);
  std::vector<std::vector<double>> samples(f.size());
  auto sample = [&](std::size_t who) {
    if (rest_ms > 0) {
      check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
      std::this_thread::sleep_for(std::chrono::milliseconds(rest_ms));
    }
    samples[who].push_back(sample_launches(*f[who], s, iters, ev));
  };
  for (int r = 0; r < repeats; ++r)
    for (std::size_t i = 0; i < f.size(); ++i) sample(r % 2 == 0 ? i : f.size() - 1 - i);
  check(cudaGetLastError(), "a timed launch");
  std::vector<Timing> out;
  for (auto& x : samples) out.push_back(summarize(std::move(x)));
  return out;
}

// Sustained run: `launches` of the kernel and of each reference, interleaved in blocks of up to
// kBlock launches of each; returns the mean per-launch times (kernel, reference, further references).
std::vector<double> time_sustained(Case const& c, cudaStream_t s, int launches) {
  constexpr int kBlock = 10;
  auto const f = timed_launchers(c);
  std::size_t const nf = f.size();
  int const blocks = (launches + kBlock - 1) / kBlock;
  Events ev(std::size_t(blocks) * nf + 1);
  check(cudaEventRecord(ev.e[0], s), "cudaEventRecord");
  int done = 0;
  for (int b = 0; b < blocks; ++b) {
    int const n = std::min(kBlock, launches - done);
    for (std::size_t w = 0; w < nf; ++w) {
      for (int i = 0; i < n; ++i) (*f[w])(s);
      check(cudaEventRecord(ev.e[std::size_t(b) * nf + w + 1], s), "cudaEventRecord");
    }
    done += n;
  }
  check(cudaEventSynchronize(ev.e.back()), "cudaEventSynchronize");
  check(cudaGetLastError(), "a sustained launch");
  std::vector<double> ms(nf, 0.0);
  for (int b = 0; b < blocks; ++b)
    for (std::size_t w = 0; w < nf; ++w) {
      std::size_t const at = std::size_t(b) * nf + w;
      ms[w] += ev.ms(at, at + 1);
    }
  for (double& x : ms) x /= launches;
  return ms;
}

// TFLOP/s for cases with flops, else GB/s.
double rate(Case const& c, double ms) {
  if (ms <= 0) return 0;
  return c.flops > 0 ? c.flops / (ms * 1e-3) / 1e12 : c.bytes / (ms * 1e-3) / 1e9;
}
double percent(double value, double ref) { return ref > 0 ? 100.0 * value / ref : 0; }

std::string json_escape(std::string const& s) {
  std::string o;
  for (char ch : s) {
    unsigned char u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          o += buf;
        } else {
          o += ch;
        }
    }
  }
  return o;
}

using tessera::tools::xml_escape;

std::string num(double v, int prec) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(prec) << v;
  return o.str();
}

std::string json_state(GpuState const& s) {
  std::ostringstream o;
  o << "{\"available\": " << (s.available ? "true" : "false") << ", \"sm_clock_mhz\": " << s.sm_clock_mhz
    << ", \"sm_clock_max_mhz\": " << s.sm_clock_max_mhz << ", \"mem_clock_mhz\": " << s.mem_clock_mhz
    << ", \"power_w\": " << num(s.power_w, 1) << ", \"power_limit_w\": " << num(s.power_limit_w, 1)
    << ", \"temperature_c\": " << s.temperature_c << "}";
  return o.str();
}

}  // namespace

std::vector<GemmShape> parse_gemm_shapes(std::string const& text) {
  std::vector<GemmShape> shapes;
  std::size_t start = 0;
  while (true) {
    std::size_t const end = std::min(text.find(',', start), text.size());
    std::string const piece = text.substr(start, end - start);
    auto bad = [&](char const* why) {
      return std::invalid_argument("shape '" + piece + "': " + why + " (expected MxNxK, e.g. 5120x5120x5120)");
    };
    long long dims[3] = {0, 0, 0};
    std::size_t pos = 0;
    for (int d = 0; d < 3; ++d) {
      if (d > 0) {
        if (pos >= piece.size() || piece[pos] != 'x') throw bad("three sizes separated by 'x' needed");
        ++pos;
      }
      std::size_t const first = pos;
      while (pos < piece.size() && piece[pos] >= '0' && piece[pos] <= '9') {
        dims[d] = dims[d] * 10 + (piece[pos] - '0');
        if (dims[d] > 0x7fffffffLL) throw bad("a size is 2^31 or more");
        ++pos;
      }
      if (pos == first) throw bad("a size is not a decimal number");
      if (dims[d] == 0) throw bad("a size is 0");
    }
    if (pos != piece.size()) throw bad("trailing characters");
    shapes.push_back({int(dims[0]), int(dims[1]), int(dims[2])});
    if (end == text.size()) break;
    start = end + 1;
  }
  return shapes;
}

std::vector<Result> run_cases(std::vector<Case>& cases, Options const& o) {
  std::vector<Result> out;
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  int i = 0;
  auto say = [&](Case const& c, std::string const& what) {
    if (o.progress)
      std::cerr << "[" << i << "/" << cases.size() << "] " << c.kernel << " " << c.shape << ": " << what << "\n";
  };
  for (auto& c : cases) {
    ++i;
    Result r;
    r.kernel = c.kernel;
    r.shape = c.shape;
    r.group = c.group;
    r.unit = c.flops > 0 ? "TFLOP/s" : "GB/s";
    r.reference = c.reference_name;
    r.note = c.note;
    say(c, "verifying");
    try {
      r.verified = c.verify ? c.verify(r.message) : false;
      if (!c.verify) r.message = "no verify function";
    } catch (std::exception const& e) {
      r.verified = false;
      r.message = e.what();
    }
    if (!r.verified) {
      std::cerr << "tessera-bench: " << c.kernel << " " << c.shape << " FAILED verification: " << r.message
                << " (not timed)\n";
      out.push_back(r);
      continue;
    }
    if (c.reference_choice) r.reference_choice = c.reference_choice();
    say(c, "timing");
    for (int w = 0; w < o.warmup; ++w) c.run(s);
    if (c.reference) {
      for (int w = 0; w < o.warmup; ++w) c.reference(s);
      for (NamedReference const& x : c.also_against)
        for (int w = 0; w < o.warmup; ++w) x.run(s);
    }
    check(cudaStreamSynchronize(s), "warm-up");
    check(cudaGetLastError(), "warm-up");
    r.before = read_gpu_state(o.device);
    std::vector<Timing> const t = c.reference ? time_burst(c, s, o.repeats, o.iters, o.rest_ms)
                                              : std::vector<Timing>{time_launches(c.run, s, o.repeats, o.iters)};
    r.median_ms = t[0].median_ms;
    r.best_ms = t[0].best_ms;
    r.value = rate(c, t[0].median_ms);
    if (c.reference) {
      r.ref_value = rate(c, t[1].median_ms);
      r.percent_of_ref = percent(r.value, r.ref_value);
      for (std::size_t i = 0; i < c.also_against.size(); ++i) {
        ReferenceRate x;
        x.name = c.also_against[i].name;
        x.ref_value = rate(c, t[i + 2].median_ms);
        x.percent_of_ref = percent(r.value, x.ref_value);
        r.also_against.push_back(x);
      }
    }
    if (o.sustained_launches > 0 && c.reference) {
      say(c, "sustained run of " + std::to_string(o.sustained_launches) + " launches of each of " +
                 std::to_string(2 + c.also_against.size()));
      GpuSampler sampler(o.device, 20);
      std::vector<double> const ms = time_sustained(c, s, o.sustained_launches);
      r.during = sampler.stop();
      r.sustained_launches = o.sustained_launches;
      r.sustained_ms = ms[0];
      r.sustained_value = rate(c, ms[0]);
      r.sustained_ref_value = rate(c, ms[1]);
      r.sustained_percent_of_ref = percent(r.sustained_value, r.sustained_ref_value);
      for (std::size_t i = 0; i < r.also_against.size(); ++i) {
        r.also_against[i].sustained_ref_value = rate(c, ms[i + 2]);
        r.also_against[i].sustained_percent_of_ref = percent(r.sustained_value, r.also_against[i].sustained_ref_value);
      }
    }
    std::string line = num(r.value, 1) + " " + r.unit + " (" + num(r.percent_of_ref, 1) + "% of " +
                       (r.reference.empty() ? "reference" : r.reference);
    for (ReferenceRate const& x : r.also_against) line += ", " + num(x.percent_of_ref, 1) + "% of " + x.name;
    line += ")";
    if (r.sustained_launches) {
      line += ", sustained " + num(r.sustained_value, 1) + " (" + num(r.sustained_percent_of_ref, 1) + "%";
      for (ReferenceRate const& x : r.also_against) line += ", " + num(x.sustained_percent_of_ref, 1) + "%";
      line += ")";
    }
    say(c, line);
    out.push_back(r);
  }
  cudaStreamDestroy(s);
  return out;
}

RunInfo make_run_info(Options const& options, std::string sizes) {
  RunInfo info;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, options.device), "cudaGetDeviceProperties");
  info.device_name = prop.name;
  info.sm_count = prop.multiProcessorCount;
  info.sizes = std::move(sizes);
  info.options = options;
  info.at_start = read_gpu_state(options.device);
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string const entry = *e;
    std::size_t const eq = entry.find('=');
    if (entry.rfind("TESSERA_", 0) == 0 && eq != std::string::npos)
      info.environment.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
  }
  std::sort(info.environment.begin(), info.environment.end());
  return info;
}

void print_table(std::vector<Result> const& rs, std::ostream& os) {
  bool const sustained = std::any_of(rs.begin(), rs.end(), [](Result const& r) { return r.sustained_launches > 0; });
  // One column (and one sustained column) per further reference any result has, in first-seen order.
  std::vector<std::string> others;
  for (auto const& r : rs)
    for (auto const& x : r.also_against)
      if (std::find(others.begin(), others.end(), x.name) == others.end()) others.push_back(x.name);
  auto other_rate = [](Result const& r, std::string const& name) -> ReferenceRate const* {
    for (auto const& x : r.also_against)
      if (x.name == name) return &x;
    return nullptr;
  };
  auto col = [](std::string const& name) { return int(std::max<std::size_t>(10, name.size() + 4)); };
  // The kernel and shape columns are as wide as their longest entry (and a gap), at least 26 and 18.
  std::size_t kernel_w = 24, shape_w = 16;
  for (auto const& r : rs) kernel_w = std::max(kernel_w, r.kernel.size()), shape_w = std::max(shape_w, r.shape.size());
  int const kw = int(kernel_w + 2), sw = int(shape_w + 2);
  os << std::left << std::setw(kw) << "kernel" << std::setw(sw) << "shape" << std::right << std::setw(12) << "median ms"
     << std::setw(12) << "best ms" << std::setw(12) << "value" << std::setw(10) << "unit" << std::setw(12)
     << "reference" << std::setw(10) << "% ref";
  for (auto const& name : others) os << std::setw(col(name)) << "% " + name;
  if (sustained) {
    os << std::setw(12) << "sustained" << std::setw(10) << "% ref";
    for (auto const& name : others) os << std::setw(col(name)) << "% " + name;
    os << std::setw(12) << "SM MHz";
  }
  os << "  verified\n";
  for (auto const& r : rs) {
    os << std::left << std::setw(kw) << r.kernel << std::setw(sw) << r.shape << std::right;
    if (r.verified) {
      os << std::setw(12) << num(r.median_ms, 4) << std::setw(12) << num(r.best_ms, 4) << std::setw(12)
         << num(r.value, 1) << std::setw(10) << r.unit << std::setw(12) << num(r.ref_value, 1) << std::setw(10)
         << num(r.percent_of_ref, 1);
      for (auto const& name : others) {
        ReferenceRate const* x = other_rate(r, name);
        os << std::setw(col(name)) << (x ? num(x->percent_of_ref, 1) : std::string("-"));
      }
      if (sustained) {
        if (r.sustained_launches > 0) {
          std::string const clocks = r.during.readings > 0 ? std::to_string(r.during.sm_clock_min_mhz) + "-" +
                                                                 num(r.during.sm_clock_mean_mhz, 0)
                                                           : "-";
          os << std::setw(12) << num(r.sustained_value, 1) << std::setw(10) << num(r.sustained_percent_of_ref, 1);
          for (auto const& name : others) {
            ReferenceRate const* x = other_rate(r, name);
            os << std::setw(col(name)) << (x ? num(x->sustained_percent_of_ref, 1) : std::string("-"));
          }
          os << std::setw(12) << clocks;
        } else {
          os << std::setw(12) << "-" << std::setw(10) << "-";
          for (auto const& name : others) os << std::setw(col(name)) << "-";
          os << std::setw(12) << "-";
        }
      }
      os << "  yes\n";
    } else {
      os << std::setw(12) << "-" << std::setw(12) << "-" << std::setw(12) << "-" << std::setw(10) << r.unit
         << std::setw(12) << "-" << std::setw(10) << "-";
      for (auto const& name : others) os << std::setw(col(name)) << "-";
      if (sustained) {
        os << std::setw(12) << "-" << std::setw(10) << "-";
        for (auto const& name : others) os << std::setw(col(name)) << "-";
        os << std::setw(12) << "-";
      }
      os << "  NO (wrong result, not timed)\n";
    }
  }
  // What "reference" was, where the cases name it.
  std::vector<std::string> named;
  for (auto const& r : rs)
    if (!r.reference.empty() && std::find(named.begin(), named.end(), r.reference) == named.end())
      named.push_back(r.reference);
  if (!named.empty()) {
    os << "(reference:";
    for (std::size_t i = 0; i < named.size(); ++i) os << (i ? ", " : " ") << named[i];
    os << (std::any_of(rs.begin(), rs.end(), [](Result const& r) { return r.reference.empty(); })
               ? "; the others' by their group"
               : "")
       << ")\n";
  }
  if (sustained) os << "(sustained: mean per launch over the interleaved run; SM MHz: min-mean while it ran)\n";
}

void write_json(RunInfo const& info, std::vector<Result> const& rs, std::string const& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("tessera-bench: cannot write " + path);
  Options const& o = info.options;
  f << "{\n  \"device\": \"" << json_escape(info.device_name) << "\", \"sm_count\": " << info.sm_count
    << ", \"sizes\": \"" << json_escape(info.sizes) << "\",\n  \"options\": {\"warmup\": " << o.warmup
    << ", \"repeats\": " << o.repeats << ", \"iters\": " << o.iters << ", \"rest_ms\": " << o.rest_ms
    << ", \"sustained_launches\": " << o.sustained_launches << "},\n  \"environment\": {";
  for (std::size_t i = 0; i < info.environment.size(); ++i)
    f << (i ? ", " : "") << "\"" << json_escape(info.environment[i].first) << "\": \""
      << json_escape(info.environment[i].second) << "\"";
  f << "},\n  \"gpu_at_start\": " << json_state(info.at_start) << ",\n  \"results\": [\n";
  for (std::size_t i = 0; i < rs.size(); ++i) {
    auto const& r = rs[i];
    f << "    {\"kernel\": \"" << json_escape(r.kernel) << "\", \"shape\": \"" << json_escape(r.shape)
      << "\", \"group\": \"" << json_escape(r.group) << "\", \"verified\": " << (r.verified ? "true" : "false")
      << ", \"message\": \"" << json_escape(r.message) << "\", \"median_ms\": " << num(r.median_ms, 6)
      << ", \"best_ms\": " << num(r.best_ms, 6) << ", \"value\": " << num(r.value, 3) << ", \"unit\": \""
      << json_escape(r.unit) << "\", \"ref_value\": " << num(r.ref_value, 3)
      << ", \"percent_of_ref\": " << num(r.percent_of_ref, 2)
      << ",\n     \"sustained_launches\": " << r.sustained_launches << ", \"sustained_ms\": " << num(r.sustained_ms, 6)
      << ", \"sustained_value\": " << num(r.sustained_value, 3)
      << ", \"sustained_ref_value\": " << num(r.sustained_ref_value, 3)
      << ", \"sustained_percent_of_ref\": " << num(r.sustained_percent_of_ref, 2)
      << ",\n     \"gpu_before\": " << json_state(r.before)
      << ",\n     \"gpu_during_sustained\": {\"readings\": " << r.during.readings
      << ", \"sm_clock_min_mhz\": " << r.during.sm_clock_min_mhz
      << ", \"sm_clock_mean_mhz\": " << num(r.during.sm_clock_mean_mhz, 1)
      << ", \"power_mean_w\": " << num(r.during.power_mean_w, 1)
      << ", \"power_max_w\": " << num(r.during.power_max_w, 1)
      << ", \"power_limit_w\": " << num(r.during.power_limit_w, 1) << "}"
      << ",\n     \"reference\": \"" << json_escape(r.reference)
      << "\", \"reference_choice\": {\"index\": " << r.reference_choice.index
      << ", \"candidates\": " << r.reference_choice.candidates << ", \"detail\": \""
      << json_escape(r.reference_choice.detail) << "\"}, \"also_against\": [";
    for (std::size_t j = 0; j < r.also_against.size(); ++j) {
      ReferenceRate const& x = r.also_against[j];
      f << (j ? ", " : "") << "{\"reference\": \"" << json_escape(x.name)
        << "\", \"ref_value\": " << num(x.ref_value, 3) << ", \"percent_of_ref\": " << num(x.percent_of_ref, 2)
        << ", \"sustained_ref_value\": " << num(x.sustained_ref_value, 3)
        << ", \"sustained_percent_of_ref\": " << num(x.sustained_percent_of_ref, 2) << "}";
    }
    f << "], \"note\": \"" << json_escape(r.note) << "\"}" << (i + 1 < rs.size() ? ",\n" : "\n");
  }
  f << "  ]\n}\n";
}

void write_svg(std::vector<Result> const& rs, std::string const& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("tessera-bench: cannot write " + path);
  int const bar_h = 22, gap = 8, label_w = 300, chart_w = 500, top = 40;
  double max_pct = 100;
  for (auto const& r : rs) max_pct = std::max(max_pct, r.percent_of_ref);
  max_pct = 10 * std::ceil(max_pct / 10);
  int h = top + int(rs.size()) * (bar_h + gap) + 30;
  int w = label_w + chart_w + 120;
  f << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  f << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  f << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">tessera-bench: % of the in-run reference "
       "(cudaMemcpyAsync D2D / cuBLAS)</text>\n";
  auto x_of = [&](double pct) { return label_w + chart_w * pct / max_pct; };
  for (double p = 0; p <= max_pct + 1e-9; p += 25) {
    f << "<line x1=\"" << num(x_of(p), 1) << "\" y1=\"" << top - 5 << "\" x2=\"" << num(x_of(p), 1) << "\" y2=\""
      << h - 25 << "\" stroke=\"" << (p == 100 ? "#333" : "#ddd") << "\"/>\n";
    f << "<text x=\"" << num(x_of(p), 1) << "\" y=\"" << h - 10 << "\" text-anchor=\"middle\">" << num(p, 0)
      << "%</text>\n";
  }
  for (std::size_t i = 0; i < rs.size(); ++i) {
    auto const& r = rs[i];
    int y = top + int(i) * (bar_h + gap);
    f << "<text x=\"" << label_w - 8 << "\" y=\"" << y + bar_h - 6 << "\" text-anchor=\"end\">"
      << xml_escape(r.kernel + " " + r.shape) << "</text>\n";
    if (!r.verified) {
      f << "<text x=\"" << label_w + 4 << "\" y=\"" << y + bar_h - 6
        << "\" fill=\"#c00\">wrong result: not timed</text>\n";
      continue;
    }
    std::string color = r.percent_of_ref >= 95 ? "#2a7" : (r.percent_of_ref >= 80 ? "#e90" : "#c33");
    f << "<rect x=\"" << label_w << "\" y=\"" << y << "\" width=\"" << num(x_of(r.percent_of_ref) - label_w, 1)
      << "\" height=\"" << bar_h << "\" fill=\"" << color << "\"><title>" << xml_escape(r.kernel + " " + r.shape)
      << ": " << num(r.value, 1) << " " << xml_escape(r.unit) << ", reference " << num(r.ref_value, 1)
      << "</title></rect>\n";
    f << "<text x=\"" << num(x_of(r.percent_of_ref) + 4, 1) << "\" y=\"" << y + bar_h - 6 << "\">"
      << num(r.percent_of_ref, 1) << "% (" << num(r.value, 0) << " " << xml_escape(r.unit) << ")</text>\n";
  }
  f << "</svg>\n";
}

}  // namespace tessera::bench
