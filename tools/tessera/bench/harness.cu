// harness.cu -- run_cases (verify, warm up, time kernel and reference with CUDA events) and the
// three reports: a text table, JSON and an SVG bar chart of % of reference.
#include "harness.hpp"
#include "tessera/tools/xml.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace tessera::bench {

namespace {

void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("tessera bench: ") + what + ": " + cudaGetErrorString(e));
}

struct Timing {
  double median_ms = 0, best_ms = 0;
};

// `repeats` samples of `iters` back-to-back launches each, per-launch time = sample / iters.
Timing time_launches(std::function<void(cudaStream_t)> const& f, cudaStream_t s, int repeats, int iters) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> samples;
  for (int r = 0; r < repeats; ++r) {
    check(cudaEventRecord(start, s), "cudaEventRecord");
    for (int i = 0; i < iters; ++i) f(s);
    check(cudaEventRecord(stop, s), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    samples.push_back(double(ms) / iters);
  }
  check(cudaGetLastError(), "a timed launch");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(samples.begin(), samples.end());
  Timing t;
  std::size_t n = samples.size();
  t.median_ms = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  t.best_ms = samples.front();
  return t;
}

// GB/s for memory cases, TFLOP/s for sgemm.
double rate(Case const& c, double ms) {
  if (ms <= 0) return 0;
  return c.group == "sgemm" ? c.flops / (ms * 1e-3) / 1e12 : c.bytes / (ms * 1e-3) / 1e9;
}

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

}  // namespace

std::vector<Result> run_cases(std::vector<Case>& cases, int warmup, int repeats, int iters_per_repeat, bool progress) {
  std::vector<Result> out;
  cudaStream_t s;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  int i = 0;
  for (auto& c : cases) {
    ++i;
    Result r{c.kernel, c.shape, c.group, 0, 0, 0, 0, 0, c.group == "sgemm" ? "TFLOP/s" : "GB/s", false};
    if (progress) std::cerr << "[" << i << "/" << cases.size() << "] " << c.kernel << " " << c.shape << ": verifying\n";
    std::string msg;
    try {
      r.verified = c.verify ? c.verify(msg) : false;
      if (!c.verify) msg = "no verify function";
    } catch (std::exception const& e) {
      r.verified = false;
      msg = e.what();
    }
    if (!r.verified) {
      std::cerr << "tessera bench: " << c.kernel << " " << c.shape << " FAILED verification: " << msg
                << " (not timed)\n";
      out.push_back(r);
      continue;
    }
    if (progress) std::cerr << "[" << i << "/" << cases.size() << "] " << c.kernel << " " << c.shape << ": timing\n";
    for (int w = 0; w < warmup; ++w) c.run(s);
    if (c.reference)
      for (int w = 0; w < warmup; ++w) c.reference(s);
    check(cudaStreamSynchronize(s), "warm-up");
    check(cudaGetLastError(), "warm-up");
    Timing k = time_launches(c.run, s, repeats, iters_per_repeat);
    r.median_ms = k.median_ms;
    r.best_ms = k.best_ms;
    r.value = rate(c, k.median_ms);
    if (c.reference) {
      Timing ref = time_launches(c.reference, s, repeats, iters_per_repeat);
      r.ref_value = rate(c, ref.median_ms);
      r.percent_of_ref = r.ref_value > 0 ? 100.0 * r.value / r.ref_value : 0;
    }
    if (progress)
      std::cerr << "[" << i << "/" << cases.size() << "] " << c.kernel << " " << c.shape << ": " << num(r.value, 1)
                << " " << r.unit << " (" << num(r.percent_of_ref, 1) << "% of reference)\n";
    out.push_back(r);
  }
  cudaStreamDestroy(s);
  return out;
}

void print_table(std::vector<Result> const& rs, std::ostream& os) {
  os << std::left << std::setw(26) << "kernel" << std::setw(18) << "shape" << std::right << std::setw(12)
     << "median ms" << std::setw(12) << "best ms" << std::setw(12) << "value" << std::setw(10) << "unit"
     << std::setw(12) << "reference" << std::setw(10) << "% ref" << "  verified\n";
  for (auto const& r : rs) {
    os << std::left << std::setw(26) << r.kernel << std::setw(18) << r.shape << std::right;
    if (r.verified) {
      os << std::setw(12) << num(r.median_ms, 4) << std::setw(12) << num(r.best_ms, 4) << std::setw(12)
         << num(r.value, 1) << std::setw(10) << r.unit << std::setw(12) << num(r.ref_value, 1) << std::setw(10)
         << num(r.percent_of_ref, 1) << "  yes\n";
    } else {
      os << std::setw(12) << "-" << std::setw(12) << "-" << std::setw(12) << "-" << std::setw(10) << r.unit
         << std::setw(12) << "-" << std::setw(10) << "-" << "  NO (wrong result, not timed)\n";
    }
  }
}

void write_json(std::vector<Result> const& rs, std::string const& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("tessera bench: cannot write " + path);
  f << "[\n";
  for (std::size_t i = 0; i < rs.size(); ++i) {
    auto const& r = rs[i];
    f << "  {\"kernel\": \"" << json_escape(r.kernel) << "\", \"shape\": \"" << json_escape(r.shape)
      << "\", \"group\": \"" << json_escape(r.group) << "\", \"verified\": " << (r.verified ? "true" : "false")
      << ", \"median_ms\": " << num(r.median_ms, 6) << ", \"best_ms\": " << num(r.best_ms, 6)
      << ", \"value\": " << num(r.value, 3) << ", \"unit\": \"" << json_escape(r.unit)
      << "\", \"ref_value\": " << num(r.ref_value, 3) << ", \"percent_of_ref\": " << num(r.percent_of_ref, 2) << "}"
      << (i + 1 < rs.size() ? ",\n" : "\n");
  }
  f << "]\n";
}

void write_svg(std::vector<Result> const& rs, std::string const& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("tessera bench: cannot write " + path);
  int const bar_h = 22, gap = 8, label_w = 300, chart_w = 500, top = 40;
  double max_pct = 100;
  for (auto const& r : rs) max_pct = std::max(max_pct, r.percent_of_ref);
  max_pct = 10 * std::ceil(max_pct / 10);
  int h = top + int(rs.size()) * (bar_h + gap) + 30;
  int w = label_w + chart_w + 120;
  f << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  f << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  f << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">tessera bench: % of the in-run reference "
       "(cudaMemcpyAsync D2D / cublasSgemm)</text>\n";
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
      f << "<text x=\"" << label_w + 4 << "\" y=\"" << y + bar_h - 6 << "\" fill=\"#c00\">wrong result: not timed</text>\n";
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
