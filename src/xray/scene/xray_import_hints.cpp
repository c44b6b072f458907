// The exporter's per-record extras read back as RecordHints: the compact `tracks` object
// (docs/xray-gltf.md 6.1) or, in files written before it, the `records` array. Malformed entries
// are ignored (the record then follows the SDK rule), never trusted.
#include "xray_import_hints.h"

#include "xray_import_bones.h"

namespace boneyard::xray::import_detail {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::vector<std::uint8_t>> from_hex(const nlohmann::json& j) {
  if (!j.is_string()) return std::nullopt;
  const auto& s = j.get_ref<const std::string&>();
  if (s.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return out;
}

// An entry [record, ...] of one of the tracks lists: its record index when it names one of `n`.
std::optional<std::size_t> entry_record(const nlohmann::json& e, std::size_t n, std::size_t min_size) {
  if (!e.is_array() || e.size() < min_size || !e[0].is_number_unsigned()) return std::nullopt;
  const auto r = e[0].get<std::uint64_t>();
  if (r >= n) return std::nullopt;
  return static_cast<std::size_t>(r);
}

const nlohmann::json& list(const nlohmann::json& tracks, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const auto* v = member(tracks, key);
  return v && v->is_array() ? *v : kEmpty;
}

bool is_rotation(const nlohmann::json& path) { return path.is_string() && path.get_ref<const std::string&>() == "rotation"; }

void read_tracks(const nlohmann::json& tracks, std::vector<RecordHint>& hints) {
  const std::size_t n = hints.size();
  const auto* flags = member(tracks, "flags");
  if (!flags || !flags->is_string()) return;
  const auto bytes = from_hex(*flags);
  if (!bytes || bytes->size() != n) return;
  for (std::size_t r = 0; r < n; ++r) hints[r].present = true, hints[r].flags = (*bytes)[r];
  for (const auto& e : list(tracks, "translations")) {
    const auto r = entry_record(e, n, 7);
    if (!r) continue;
    bool numbers = true;
    for (std::size_t i = 1; i < 7; ++i) numbers = numbers && e[i].is_number();
    if (!numbers) continue;  // a NaN was written as null
    hints[*r].size = Vec3{e[1].get<float>(), e[2].get<float>(), e[3].get<float>()};
    hints[*r].init = Vec3{e[4].get<float>(), e[5].get<float>(), e[6].get<float>()};
  }
  for (const auto& e : list(tracks, "signs")) {
    const auto r = entry_record(e, n, 2);
    if (!r) continue;
    auto& toggles = hints[*r].sign_toggles;
    toggles.clear();
    for (std::size_t i = 1; i < e.size(); ++i) {
      if (!e[i].is_number_unsigned() || e[i].get<std::uint64_t>() > 0xFFFFFFFFu ||
          (!toggles.empty() && e[i].get<std::uint32_t>() <= toggles.back())) {
        toggles.clear();  // not increasing key indices: not ours
        break;
      }
      toggles.push_back(e[i].get<std::uint32_t>());
    }
  }
  for (const auto& e : list(tracks, "keys")) {
    const auto r = entry_record(e, n, 3);
    if (!r) continue;
    auto keys = from_hex(e[2]);
    if (!keys) continue;
    (is_rotation(e[1]) ? hints[*r].rotation_keys : hints[*r].translation_keys) = std::move(keys);
  }
  for (const auto& e : list(tracks, "crcs")) {
    const auto r = entry_record(e, n, 4);
    if (!r || !e[2].is_number_unsigned() || !e[3].is_number_unsigned()) continue;
    const std::pair<std::uint32_t, std::uint32_t> fix{e[2].get<std::uint32_t>(), e[3].get<std::uint32_t>()};
    (is_rotation(e[1]) ? hints[*r].rotation_crc_fix : hints[*r].translation_crc_fix) = fix;
  }
}

void read_records(const nlohmann::json& records, std::vector<RecordHint>& hints) {
  for (std::size_t r = 0; r < hints.size(); ++r) {
    const auto& j = records[r];
    auto flags = number<std::uint8_t>(j, "flags");
    if (!flags) continue;
    RecordHint& h = hints[r];
    h.present = true;
    h.legacy = true;
    h.flags = *flags;
    h.rotation_crc = number<std::uint32_t>(j, "rotation_crc");
    h.translation_crc = number<std::uint32_t>(j, "translation_crc");
    h.size = vec3(j, "translation_size");
    h.init = vec3(j, "translation_init");
  }
}

}  // namespace

std::vector<RecordHint> record_hints(const nlohmann::json& x, std::size_t n) {
  std::vector<RecordHint> hints(n);
  if (const auto* tracks = member(x, "tracks"); tracks && tracks->is_object())
    read_tracks(*tracks, hints);
  else if (const auto* records = member(x, "records"); records && records->is_array() && records->size() == n)
    read_records(*records, hints);
  return hints;
}

}  // namespace boneyard::xray::import_detail
