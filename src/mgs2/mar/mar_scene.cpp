// .mar motions -> animations of the neutral scene (then glTF), on the model's skeleton. One
// animation per motion, keys at frame / 30 s; what no reader applies (the second key set, flags,
// base tick, root/move/turn/fix) goes to extras (docs/mgs2-mar.md "glTF").
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "boneyard/core/text.h"
#include "boneyard/mgs2/mar/mar_report.h"
#include "boneyard/mgs2/mar/mar_scene.h"
#include "mar_internal.h"
#include "scene/extras_json.h"

namespace boneyard::mgs2 {

namespace {

using Json = nlohmann::json;

// The glTF limit on a flat armature (as many joints as an MGS2 model can export).
constexpr std::size_t kMaxFlatJoints = 65535;

std::string base64(const std::uint8_t* data, std::size_t size) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out = "b64:";
  out.reserve(4 + (size + 2) / 3 * 4);
  for (std::size_t i = 0; i < size; i += 3) {
    const std::uint32_t b0 = data[i], b1 = i + 1 < size ? data[i + 1] : 0, b2 = i + 2 < size ? data[i + 2] : 0;
    const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < size ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < size ? kAlphabet[v & 63] : '=';
  }
  return out;
}

// Little-endian 16-bit values as base64 (the extras' columns, as the model extras write them).
template <class T>
std::string base64_u16(const std::vector<T>& values) {
  std::vector<std::uint8_t> bytes;
  bytes.reserve(values.size() * 2);
  for (T v : values) {
    const auto u = static_cast<std::uint16_t>(v);
    bytes.push_back(static_cast<std::uint8_t>(u & 0xFF));
    bytes.push_back(static_cast<std::uint8_t>(u >> 8));
  }
  return base64(bytes.data(), bytes.size());
}

// The timeline of `frames` in `a`: equal key frame lists share one.
class Timelines {
 public:
  explicit Timelines(scene::Animation& a) : a_(a) {}
  std::uint32_t get(const std::vector<std::uint64_t>& frames) {
    auto [it, added] = index_.emplace(frames, static_cast<std::uint32_t>(a_.timelines.size()));
    if (added) {
      scene::Timeline t;
      t.times.reserve(frames.size());
      for (auto f : frames) t.times.push_back(static_cast<float>(static_cast<double>(f) / kMarFramesPerSecond));
      a_.timelines.push_back(std::move(t));
    }
    return it->second;
  }

 private:
  scene::Animation& a_;
  std::map<std::vector<std::uint64_t>, std::uint32_t> index_;
};

// What one motion's keys held that glTF cannot show as stored.
struct Repairs {
  std::size_t same_frame = 0, zero_quats = 0, non_finite = 0;
};

// Appends a key at `frame`, or replaces the previous one when it has that frame (glTF needs
// strictly increasing times; the later key is what the pose reaches).
template <std::size_t N>
void push_key(std::vector<std::uint64_t>& frames, std::vector<float>& values, std::uint64_t frame, const std::array<float, N>& v,
              Repairs& r) {
  if (!frames.empty() && frames.back() == frame) {
    ++r.same_frame;
    std::copy(v.begin(), v.end(), values.end() - static_cast<std::ptrdiff_t>(N));
    return;
  }
  frames.push_back(frame);
  values.insert(values.end(), v.begin(), v.end());
}

Status add_motion(scene::Scene& s, const MarFile& mar, std::size_t i, const MarExportOptions& o, detail::KeyBudget& budget,
                  Diagnostics& warnings) {
  const MarMotion& m = mar.motions[i];
  const MtcmHeader& h = m.header;
  const std::string name = mar_motion_name(h.name, o.names);
  const std::string where = "motion " + std::to_string(i) + " (" + name + ")";
  if (h.joints > s.skeleton.joints.size())
    return Finding{Severity::error, m.file_offset + (mar.layout == Layout::ps2 ? 0x18 : 0x1C), where + " joints",
                   "the motion drives joints the skeleton does not have" + (o.source.empty() ? std::string() : " (" + o.source + ")"),
                   "<= " + std::to_string(s.skeleton.joints.size()), std::to_string(h.joints)};
  scene::Animation a;
  a.name = name;
  Timelines timelines(a);
  Repairs rep;
  std::vector<std::uint64_t> frames;
  Json extra_rotations = Json::array();
  std::vector<std::uint16_t> extra_translation;
  if (h.joints != 0) {
    std::vector<MarTranslationKey> keys;
    const MarStream stream = translation_stream(m);
    if (auto ok = budget.take(stream.bytes.size() * 8 / kMarTranslationRecordBits + 1, stream.file_offset, where); !ok) return ok;
    if (auto r = decode_translation_keys(m, i, keys); !r) return r.error();
    scene::Channel c;
    c.joint = 0;
    c.path = scene::Channel::Path::translation;
    frames.clear();
    const boneyard::Vec3 rest = s.skeleton.joints[0].translation;
    for (const auto& k : keys) {
      auto v = translation_key_value(k.value);
      for (auto& x : v) x = static_cast<float>(x * o.scale);
      if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2])) {
        ++rep.non_finite;
        v = {rest.x, rest.y, rest.z};
      }
      push_key(frames, c.values, k.frame, v, rep);
      if (!k.initial) extra_translation.insert(extra_translation.end(), k.extra.begin(), k.extra.end());
    }
    c.timeline = timelines.get(frames);
    a.channels.push_back(std::move(c));
  }
  std::vector<MarRotationKey> keys;
  std::vector<std::int16_t> extra;
  for (std::size_t j = 0; j < h.joints; ++j) {
    const MarStream stream = rotation_stream(m, j);
    if (auto ok = budget.take(stream.bytes.size() * 8 / kMarRotationRecordBits + 1, stream.file_offset, where); !ok) return ok;
    if (auto r = decode_rotation_keys(m, i, j, keys); !r) return r.error();
    extra.clear();
    for (const auto& k : keys) extra.insert(extra.end(), k.extra.begin(), k.extra.end());
    extra_rotations.push_back(base64_u16(extra));
    if (keys.empty()) continue;
    scene::Channel c;
    c.joint = static_cast<std::uint32_t>(j);
    c.path = scene::Channel::Path::rotation;
    frames.clear();
    const Quat rest = s.skeleton.joints[j].rotation;
    std::array<float, 4> previous{rest.x, rest.y, rest.z, rest.w};
    for (const auto& k : keys) {
      auto q = rotation_key_value(k.value);
      if (q == std::array<float, 4>{}) {
        ++rep.zero_quats;  // no rotation at all: hold the one before
        q = previous;
      }
      previous = q;
      push_key(frames, c.values, k.frame, q, rep);
    }
    scene::make_sign_continuous(c.values);
    c.timeline = timelines.get(frames);
    a.channels.push_back(std::move(c));
  }
  if (rep.same_frame != 0)
    warnings.add(Severity::warning, m.file_offset, where + " keys",
                 std::to_string(rep.same_frame) + " keys have the frame of the key before (delta 0); the glTF keeps the later one");
  if (rep.zero_quats != 0)
    warnings.add(Severity::warning, m.file_offset, where + " rotation keys",
                 std::to_string(rep.zero_quats) + " zero quaternions replaced by the key before (or the rest pose)");
  if (rep.non_finite != 0)
    warnings.add(Severity::warning, m.file_offset, where + " translation keys",
                 std::to_string(rep.non_finite) + " infinite or NaN translations replaced by the rest translation");
  const std::uint64_t tail_at = std::uint64_t{h.root_offset} * 2;
  const Bytes tail = tail_at < m.archive.size() ? m.archive.subspan(tail_at) : Bytes{};
  Json e = {{"index", i},
            {"name", mar_motion_name(h.name, nullptr)},
            {"strcode", h.name},
            {"flags", h.flags},
            {"base_tick", h.base_tick},
            {"frames", h.frames},
            {"joints", h.joints},
            {"root_offset", h.root_offset},
            {"move_offset", h.move_offset},
            {"turn_offset", h.turn_offset},
            {"fix_offset", h.fix_offset},
            {"second_keys", {{"translation", base64_u16(extra_translation)}, {"rotation", std::move(extra_rotations)}}},
            {"tail", base64(tail.data(), tail.size())}};
  if (mar.layout == Layout::mc) e["pad"] = h.pad;
  scene::json_of(a.extras)["mgs2_motion"] = std::move(e);
  s.animations.push_back(std::move(a));
  return {};
}

bool selected(const MarMotion& m, const MarExportOptions& o) {
  if (o.motions.empty()) return true;
  const std::string shown = mar_motion_name(m.header.name, o.names), hex_name = mar_motion_name(m.header.name, nullptr);
  for (const auto& g : o.motions)
    if (glob_match(g, shown) || glob_match(g, hex_name)) return true;
  return false;
}

}  // namespace

Status add_mar_motions(scene::Scene& s, const MarFile& mar, const MarExportOptions& o, Diagnostics& warnings) {
  detail::KeyBudget budget(mar.file_size);
  if (mar.header.max_joint > s.skeleton.joints.size())
    warnings.add(Severity::warning, 4, "header max joint",
                 "the archive's max_joint exceeds the skeleton's " + std::to_string(s.skeleton.joints.size()) +
                     " joints (the Noesis readers load none of its motions then); each motion is checked on its own",
                 "<= " + std::to_string(s.skeleton.joints.size()), std::to_string(mar.header.max_joint));
  std::size_t kept = 0;
  for (std::size_t i = 0; i < mar.motions.size(); ++i) {
    const MarMotion& m = mar.motions[i];
    if (!m.readable) {
      Finding f = m.readable.error();
      f.path = "motion " + std::to_string(i) + (f.path.empty() ? "" : " " + f.path);
      if (!o.skip_broken) return f;
      f.severity = Severity::warning;
      f.message = "left out: " + f.message;
      warnings.add(std::move(f));
      continue;
    }
    if (!selected(m, o)) continue;
    const std::size_t before = s.animations.size();
    if (auto added = add_motion(s, mar, i, o, budget, warnings); !added) {
      if (!o.skip_broken) return added;
      s.animations.resize(before);
      Finding f = added.error();
      f.severity = Severity::warning;
      f.message = "left out: " + f.message;
      warnings.add(std::move(f));
      continue;
    }
    ++kept;
  }
  if (!o.motions.empty() && kept == 0)
    warnings.add(Severity::warning, 0, "--motions", "no motion of " + (o.source.empty() ? std::string("the .mar") : o.source) +
                                                         " matches the given names");
  Json& x = scene::json_of(s.extras)["mgs2_mar"];
  x = {{"source", o.source},
       {"layout", std::string(layout_name(mar.layout))},
       {"max_joint", mar.header.max_joint},
       {"motion_count", mar.header.motion_count},
       {"scale", o.scale}};
  return {};
}

scene::Scene mar_flat_scene(const MarFile& mar, std::string_view name) {
  std::size_t joints = 0;
  for (const auto& m : mar.motions)
    if (m.readable) joints = std::max<std::size_t>(joints, m.header.joints);
  if (mar.header.max_joint <= kMaxFlatJoints) joints = std::max<std::size_t>(joints, mar.header.max_joint);
  joints = std::min(joints, kMaxFlatJoints);
  scene::Scene s;
  s.skeleton.name = std::string(name);
  s.skeleton.joints.resize(std::max<std::size_t>(joints, 1));
  for (std::size_t j = 0; j < s.skeleton.joints.size(); ++j) s.skeleton.joints[j].name = "joint_" + std::to_string(j);
  return s;
}

}  // namespace boneyard::mgs2
