// libFuzzer target for the Master Collection index files (manifest*.txt, bp_assets*.txt): reader,
// line splitter, validator, report. Properties beyond "no crash": the file rewrites byte-exact, its
// lines and their endings put together are the file, and a line that parses as three paths is
// those paths joined by commas.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "boneyard/mgs2/mc_index/mc_index.h"
#include "boneyard/mgs2/mc_index/mc_index_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace boneyard;
  using namespace boneyard::mgs2;
  const Bytes bytes(data, size);
  for (const char* name : {"manifest.txt", "bp_assets_mod.txt", "other.txt"}) {
    auto f = read_mc_index(FileData::from_view(bytes, nullptr), name);
    if (!f) return 0;
    (void)validate_mc_index(f.value());
    (void)describe_mc_index(f.value());
    JsonWriter w;
    dump_mc_index(w, f.value(), true);
    const auto out = write_mc_index(f.value());
    if (out.size() != size || !std::equal(out.begin(), out.end(), data)) std::abort();
    std::string joined;
    for_each_mc_index_line(bytes, [&](const McIndexLine& l) {
      joined.append(l.text).append(l.ending);
      if (const auto e = parse_mc_index_line(l.text); e && e->text() != l.text) std::abort();
    });
    if (joined.size() != size || !std::equal(joined.begin(), joined.end(), reinterpret_cast<const char*>(data))) std::abort();
  }
  (void)sniff_mc_index(bytes, ".txt", "bp_assets.txt");
  return 0;
}
