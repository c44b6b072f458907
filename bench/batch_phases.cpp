// Where a batch conversion's time goes (issue 30): every .ogf and .omf under a folder converted to
// .glb the way `convert --recursive` converts it, one file at a time on one thread, with the CPU
// time of each phase summed over the files:
//   read      map the file and parse it (read_ogf / read_omf)
//   validate  the validator the batch runs before converting (its blockers)
//   motions   an .ogf's motion refs looked up and their .omf files read
//   scene     the neutral scene (meshes, skin, animations)
//   layout    the glTF layout and its JSON text (gltf::Encoding)
//   write     the .glb streamed to a temporary file and renamed into OUT
// Usage: batch_phases IN_DIR OUT_DIR. Prints a table (CPU ms per phase, share, MB/s of input).
#include <time.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "boneyard/core/file_io.h"
#include "boneyard/core/text.h"
#include "boneyard/gltf/gltf_write.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/xray_scene.h"

namespace fs = std::filesystem;
using namespace boneyard;

namespace {

enum Phase { kRead, kValidate, kMotions, kScene, kLayout, kWrite, kPhases };
constexpr std::array<const char*, kPhases> kNames = {"read", "validate", "motions", "scene", "layout+JSON", "write"};

double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct Clock {
  std::array<double, kPhases> ms{};
  double last = thread_cpu_ms();
  void lap(Phase p) {
    const double now = thread_cpu_ms();
    ms[p] += now - last;
    last = now;
  }
};

bool write_glb(const scene::Scene& sc, const fs::path& out, Clock& clock) {
  const gltf::Encoding encoding(sc, gltf::Container::glb);
  clock.lap(kLayout);
  fs::create_directories(out.parent_path());
  auto file = AtomicFile::create(out);
  if (!file) return false;
  const bool ok = encoding.write(*file.value()) && file.value()->commit();
  clock.lap(kWrite);
  return ok;
}

bool convert_ogf(const fs::path& in, const fs::path& out, Clock& clock) {
  auto opened = FileData::open(in);
  if (!opened) return false;
  auto ogf = xray::read_ogf(std::move(opened).value());
  clock.lap(kRead);
  if (!ogf) return false;
  const Diagnostics found = xray::validate_ogf(ogf.value());
  clock.lap(kValidate);
  if (found.has_errors()) return false;
  xray::XrayExportOptions options;
  options.input = in;
  if (!ogf->motion_refs.empty()) {
    const auto refs = resolve_motion_refs(xray::default_meshes_root(fs::absolute(in)), ogf->motion_refs);
    options.ref_motions = read_ref_motions(refs, in);
  }
  clock.lap(kMotions);
  Diagnostics warnings;
  auto sc = xray::ogf_to_scene(ogf.value(), options, warnings);
  clock.lap(kScene);
  return sc && write_glb(sc.value(), out, clock);
}

bool convert_omf(const fs::path& in, const fs::path& out, Clock& clock) {
  auto opened = FileData::open(in);
  if (!opened) return false;
  auto omf = xray::read_omf(std::move(opened).value());
  clock.lap(kRead);
  if (!omf) return false;
  const Diagnostics found = xray::validate_omf(omf.value());
  clock.lap(kValidate);
  if (found.has_errors()) return false;
  Diagnostics warnings;
  auto sc = xray::omf_to_scene(omf->motions, xray::XrayExportOptions{}, warnings);
  clock.lap(kScene);
  return sc && write_glb(sc.value(), out, clock);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: batch_phases IN_DIR OUT_DIR\n");
    return 2;
  }
  const fs::path in_dir = argv[1], out_dir = argv[2];
  std::vector<fs::path> files;
  std::uintmax_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(in_dir)) {
    const std::string ext = lower_extension(e.path().string());
    if (e.is_regular_file() && (ext == ".ogf" || ext == ".omf")) {
      files.push_back(e.path());
      bytes += e.file_size();
    }
  }
  std::sort(files.begin(), files.end());
  Clock clock;
  std::size_t converted = 0;
  for (const auto& f : files) {
    fs::path out = out_dir / f.lexically_relative(in_dir);
    const bool ogf = lower_extension(f.string()) == ".ogf";
    out.replace_filename(out.stem().string() + (ogf ? "" : "_omf") + ".glb");
    clock.last = thread_cpu_ms();
    converted += (ogf ? convert_ogf(f, out, clock) : convert_omf(f, out, clock)) ? 1 : 0;
  }
  double total = 0;
  for (double ms : clock.ms) total += ms;
  std::printf("%zu files (%.1f MB), %zu converted, %.0f ms CPU in all (one thread)\n", files.size(), static_cast<double>(bytes) / 1e6, converted,
              total);
  std::printf("%-12s %10s %7s\n", "phase", "CPU ms", "share");
  for (int p = 0; p < kPhases; ++p)
    std::printf("%-12s %10.0f %6.1f%%\n", kNames[p], clock.ms[p], total > 0 ? 100.0 * clock.ms[p] / total : 0.0);
  return 0;
}
