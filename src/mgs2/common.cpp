#include <algorithm>
#include <string>

#include "boneyard/mgs2/mgs2_layout.h"
#include "read_helpers.h"

namespace boneyard::mgs2 {

std::string_view layout_name(Layout layout) { return layout == Layout::ps2 ? "ps2" : "mc"; }

std::optional<Layout> parse_layout(std::string_view name) {
  if (name == "ps2") return Layout::ps2;
  if (name == "mc") return Layout::mc;
  return std::nullopt;
}

std::vector<Gap> uncovered_gaps(Bytes file, std::vector<Interval> covered) {
  const auto order = [](const Interval& a, const Interval& b) { return a.begin < b.begin; };
  if (!std::is_sorted(covered.begin(), covered.end(), order)) std::sort(covered.begin(), covered.end(), order);
  std::vector<Gap> gaps;
  std::uint64_t pos = 0;
  for (const auto& iv : covered) {
    if (iv.begin > pos) gaps.push_back(Gap{pos, file.subspan(pos, iv.begin - pos)});
    pos = std::max(pos, iv.end);
  }
  if (pos < file.size()) gaps.push_back(Gap{pos, file.subspan(pos)});
  return gaps;
}

void note_layout_and_gaps(Diagnostics& notes, std::optional<Layout> forced, const std::vector<Gap>& gaps) {
  if (forced) notes.add(Severity::info, 0, "header", "layout forced", {}, std::string(layout_name(*forced)));
  std::uint64_t gap_bytes = 0;
  for (const auto& g : gaps) gap_bytes += g.bytes.size();
  if (gap_bytes != 0) {
    notes.add(Severity::info, gaps.front().offset, "file",
              std::to_string(gap_bytes) + " bytes in " + std::to_string(gaps.size()) +
                  " gaps not covered by any structure (padding or unknown data, kept on rewrite)");
  }
}

}  // namespace boneyard::mgs2
