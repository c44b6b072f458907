// .skl/.skls -> .omf: the SDK's compiler (ExportSkeleton.cpp's ExportMotionKeys and ExportMotionDefs),
// frame by frame, in float where the SDK computes in float, with the stored keys found again where
// the envelopes hold a decoded .omf (docs/xray-sdk.md "Conversions").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "boneyard/core/limits.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/omf/omf_edit.h"
#include "boneyard/xray/sdk_pose.h"
#include "boneyard/xray/skl/skl_convert.h"
#include "skl_sampler.h"

namespace boneyard::xray {

namespace {

// Why `name` cannot be stored as this kind of .omf name, or "" when it can.
std::string compile_name_problem(std::string_view name, OmfName kind) {
  const Status storable = check_omf_name(name, kind);
  return storable ? std::string() : storable.error().message;
}

constexpr float kEpsL = 0.001f;  // EPS_L: a translation within this of its mean on every axis is constant
constexpr float kSixteenBitRange = 1.5f;  // a track whose half-range vector is longer is 16-bit

// The compiled keys of one bone in one motion, before they are laid out.
struct RecordValues {
  std::vector<std::array<std::int16_t, 4>> rotations;
  std::vector<std::array<float, 3>> translations;
};

// The SDK's translation record: constant (the mean) unless some frame is EPS_L off it on an axis;
// else 8-bit, or 16-bit when the half-range vector is longer than 1.5 m or forced, keys
// int(K * (t - centre) / half) clamped. A track whose values are exactly an encoding's decodings
// (an .omf decoded into an .skls) keeps that encoding.
struct TranslationChoice {
  bool keyed = false;
  bool sixteen = false;
  bool found = false;  // the stored encoding was found again
  Vec3 size, init;
  std::vector<std::uint8_t> keys;
};

// Key q of one axis under (size, init): the key whose decoding is the value (recovered axes).
int key_of(float v, float size, float init, int bottom, int top) {
  if (size == 0.0f) return 0;
  const double guess = std::nearbyint((double(v) - double(init)) / double(size));
  for (int d : {0, -1, 1}) {
    const double c = std::clamp(guess + d, double(bottom), double(top));
    if (decode_translation(static_cast<std::int32_t>(c), size, init) == v) return static_cast<int>(c);
  }
  return static_cast<int>(std::clamp(guess, double(bottom), double(top)));
}

void put_key(std::vector<std::uint8_t>& keys, std::size_t k, int a, int q, bool sixteen) {
  if (sixteen) {
    const auto v = static_cast<std::int16_t>(q);
    std::memcpy(keys.data() + k * 6 + static_cast<std::size_t>(a) * 2, &v, 2);
  } else {
    keys[k * 3 + static_cast<std::size_t>(a)] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
  }
}

// The encodings a track's values were decoded from, at both widths (an .omf decoded into an .skls).
struct Recovered {
  std::array<AxisEncoding, 3> e8{}, e16{};
  int found8 = 0, found16 = 0;
};

Recovered recover_track(const std::vector<std::array<float, 3>>& t, bool allow_16bit, bool force_16bit) {
  Recovered r;
  const std::size_t n = t.size();
  bool all_same = true;
  for (std::size_t k = 1; k < n && all_same; ++k) all_same = t[k] == t[0];
  if (all_same) return r;
  std::vector<float> axis(n);
  for (int a = 0; a < 3; ++a) {
    for (std::size_t k = 0; k < n; ++k) axis[k] = t[k][a];
    if (!force_16bit) r.e8[a] = recover_axis_encoding(axis, false);
    if (allow_16bit) r.e16[a] = recover_axis_encoding(axis, true);
    r.found8 += r.e8[a].found;
    r.found16 += r.e16[a].found;
  }
  return r;
}

// `prefer_16bit`: the motion's other tracks show 16-bit keys, so a track that fits both widths (a
// few distinct values fit any) was 16-bit too.
TranslationChoice choose_translation(const std::vector<std::array<float, 3>>& t, const Recovered& rec, bool prefer_16bit,
                                     bool allow_16bit, bool force_16bit) {
  TranslationChoice out;
  const std::size_t n = t.size();
  bool all_same = true;
  for (std::size_t k = 1; k < n && all_same; ++k) all_same = t[k] == t[0];
  if (all_same) {
    out.init = {t[0][0], t[0][1], t[0][2]};
    return out;
  }
  // The SDK's rule, in its float arithmetic: the mean, the range, the 8/16-bit choice.
  std::array<float, 3> mean{0, 0, 0}, lo = t[0], hi = t[0];
  for (const auto& v : t)
    for (int a = 0; a < 3; ++a) {
      mean[a] += v[a];
      lo[a] = std::min(lo[a], v[a]);
      hi[a] = std::max(hi[a], v[a]);
    }
  for (auto& m : mean) m /= static_cast<float>(n);
  bool sdk_keyed = false;
  for (const auto& v : t)
    for (int a = 0; a < 3; ++a)
      if (!(std::fabs(mean[a] - v[a]) < kEpsL)) sdk_keyed = true;
  std::array<float, 3> centre{}, half{};
  for (int a = 0; a < 3; ++a) {
    centre[a] = (hi[a] + lo[a]) * 0.5f;
    half[a] = (hi[a] - lo[a]) * 0.5f;
  }
  const float length = std::sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
  const bool sdk_sixteen = allow_16bit && (force_16bit || length > kSixteenBitRange);
  // The SDK's decisions stand: a track within 1 mm of its mean is constant, one whose half-range
  // is over 1.5 m (or forced) is 16-bit. Within them, the encoding the values were decoded from is
  // kept (a few distinct values fit any encoding, so the values alone would decide nothing); a
  // track that fits only 16 bits, or both when the motion's other tracks show 16-bit keys, is the
  // SDK told to write 16 bits. Axes not found take the SDK's rule at the chosen width.
  if (!sdk_keyed) {
    out.init = {mean[0], mean[1], mean[2]};
    return out;
  }
  bool sixteen = sdk_sixteen;
  if (!sdk_sixteen && allow_16bit && rec.found16 == 3 && (rec.found8 < 3 || prefer_16bit)) sixteen = true;
  const std::array<AxisEncoding, 3>& enc = sixteen ? rec.e16 : rec.e8;
  const int found = sixteen ? rec.found16 : rec.found8;
  const bool use_found = found > 0;
  out.keyed = true;
  out.found = found == 3;
  out.sixteen = sixteen;
  const float k = out.sixteen ? 32767.0f : 127.0f;
  const int top = out.sixteen ? 32767 : 127;
  const int bottom_found = out.sixteen ? -32768 : -128, bottom_sdk = out.sixteen ? -32767 : -128;
  out.keys.resize(n * (out.sixteen ? 6 : 3));
  std::array<float, 3> size{}, init{};
  for (int a = 0; a < 3; ++a) {
    const bool recovered = use_found && enc[a].found;
    size[a] = recovered ? enc[a].size : half[a] / k;
    init[a] = recovered ? enc[a].init : centre[a];
    for (std::size_t i = 0; i < n; ++i) {
      int q = 0;
      if (recovered) {
        q = key_of(t[i][a], enc[a].size, enc[a].init, bottom_found, top);
      } else if (half[a] != 0.0f) {
        // int(K * (t - centre) / half), clamped; the SDK divides by a zero half-range too, and real
        // files hold 0 on such an axis.
        const float scaled = k * (t[i][a] - centre[a]) / half[a];
        q = std::clamp(static_cast<int>(std::clamp(scaled, -40000.0f, 40000.0f)), bottom_sdk, top);
      }
      put_key(out.keys, i, a, q, out.sixteen);
    }
  }
  out.size = {size[0], size[1], size[2]};
  out.init = {init[0], init[1], init[2]};
  return out;
}

std::string list_names(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < 8; ++i) out += (out.empty() ? "" : ", ") + cp1251_to_utf8(names[i]);
  if (names.size() > 8) out += ", ...";
  return out;
}

class Compiler {
 public:
  Compiler(const std::vector<SklMotion>& motions, const SklCompileOptions& o, const MotionSkeleton& sk,
           Diagnostics& warnings, SklCompileStats& st)
      : motions_(motions), o_(o), sk_(sk), warnings_(warnings), st_(st), sampler_(sk) {}

  Result<OmfFile> run() {
    OmfFile out;
    std::vector<std::string> no_motion_bones, lacking_motions;
    std::size_t dropped_marks = 0, fps_other = 0, root_movers = 0;
    std::uint64_t total_frames = 0;
    for (std::size_t m = 0; m < motions_.size(); ++m) {
      const SklMotion& sm = motions_[m];
      const std::string where = "motion " + std::to_string(m) + " \"" + printable(sm.name) + "\"";
      const std::int64_t frames = std::int64_t{sm.frame_end} - std::int64_t{sm.frame_start} + 1;
      if (frames < 1)
        return Finding{Severity::error, sm.offset, where, "motion without frames (the SDK compiles frames start..end)",
                       "end >= start", std::to_string(sm.frame_start) + ".." + std::to_string(sm.frame_end)};
      if (!(sm.fps > 0) || !std::isfinite(sm.fps))
        return Finding{Severity::error, sm.offset, where, "fps must be a positive number (frames are sampled at frame / fps)",
                       "> 0", std::to_string(sm.fps)};
      if (static_cast<std::uint64_t>(frames) > kMaxMotionFrames)
        return Finding{Severity::error, sm.offset, where, "motion too long to convert", "<= " + frames_text(kMaxMotionFrames),
                       std::to_string(frames) + " frames"};
      total_frames += static_cast<std::uint64_t>(frames);
      if (total_frames > kMaxTotalFrames)
        return Finding{Severity::error, sm.offset, where,
                       "motions too long in total to convert (the limit is for all motions of one conversion)",
                       "<= " + frames_text(kMaxTotalFrames) + " in all", std::to_string(total_frames) + " frames up to here"};
      if (auto problem = compile_name_problem(sm.name, OmfName::motion); !problem.empty())
        return Finding{Severity::error, sm.offset, where, "motion name " + problem, "a name the .omf can store",
                       "\"" + printable(sm.name) + "\""};
      if (sm.fps != static_cast<float>(kSampleFps)) ++fps_other;
      if ((sm.flags & kMotionRootMover) != 0 && sk_.actor_transform) ++root_movers;
      std::size_t unmatched = 0;
      const auto matched = match_bones(sm, sk_, unmatched);
      std::size_t missing = 0;
      for (std::size_t i = 0; i < matched.size(); ++i)
        if (!matched[i]) ++missing;
      if (missing == matched.size() && !matched.empty())
        return Finding{Severity::error, sm.offset, where, "none of the motion's bones is in the skeleton (" + sk_.source + ")",
                       "bones such as \"" + cp1251_to_utf8(sk_.bones[0].name) + "\"",
                       sm.bones.empty() ? "no bones" : "\"" + cp1251_to_utf8(sm.bones[0].name) + "\""};
      if (missing > 0) {
        if (!sk_.rest_known)
          return Finding{Severity::error, sm.offset, where,
                         "the motion lacks bones of the first motion, and without --skeleton there is no rest pose for them",
                         std::to_string(sk_.bones.size()) + " bones", std::to_string(sk_.bones.size() - missing)};
        lacking_motions.push_back(sm.name);
        st_.missing_bones += missing;
      }
      if (unmatched > 0) no_motion_bones.push_back(sm.name);
      MotionKeys keys;
      if (auto e = compile_motion(sm, matched, static_cast<std::size_t>(frames), out, keys)) return *e;
      keys.name = sm.name;
      out.motions.motions.push_back(std::move(keys));
      MotionParams p;
      p.name = sm.name;
      p.flags = sm.flags;
      p.bone_or_part = static_cast<std::uint16_t>(sm.bone_or_part);
      p.motion_id = static_cast<std::uint16_t>(m);
      p.speed = sm.speed;
      p.power = sm.power;
      p.accrue = sm.accrue;
      p.falloff = sm.falloff;
      if (o_.params_version >= 4) p.marks = sm.marks;
      else dropped_marks += sm.marks.empty() ? 0 : 1;
      for (auto& mk : p.marks) mk.offset = mk.count_offset = 0;
      out.motions.params.motions.push_back(std::move(p));
      ++st_.motions;
    }
    report(no_motion_bones, lacking_motions, dropped_marks, fps_other, root_movers);
    // The SDK told to write 16-bit translations (--hq, or what the stored tracks show) sets the flag
    // on every record, constant translations included (docs/xray-omf.md).
    if (o_.params_version >= 4 && (o_.force_16bit || forced_))
      for (auto& k : out.motions.motions)
        for (auto& b : k.bones)
          if (!b.translation_keyed()) b.flags = static_cast<std::uint8_t>(b.flags | kFlagTKeys16);
    out.chunks = {{TopChunk::Kind::motions, kChunkMotions, 0, {}}, {TopChunk::Kind::params, kChunkParams, 0, {}}};
    Params& params = out.motions.params;
    params.version = o_.params_version;
    params.parts = sk_.parts;
    if (params.parts.empty()) {
      BonePart all;
      all.name = "default";
      for (std::size_t i = 0; i < sk_.bones.size(); ++i) all.bones.push_back({sk_.bones[i].name, static_cast<std::uint32_t>(i), 0});
      params.parts.push_back(std::move(all));
    }
    EditReport layout;
    rebuild_motion_layout(out, layout);
    return out;
  }

 private:
  std::optional<Finding> compile_motion(const SklMotion& sm, const std::vector<const SklBone*>& matched, std::size_t frames,
                                        OmfFile& out, MotionKeys& keys) {
    const std::size_t n = sk_.bones.size();
    sampler_.start(matched);
    std::vector<RecordValues> values(n);
    for (auto& v : values) {
      v.rotations.resize(frames);
      v.translations.resize(frames);
    }
    for (std::size_t f = 0; f < frames; ++f) {
      const float t = static_cast<float>(static_cast<std::int64_t>(sm.frame_start) + static_cast<std::int64_t>(f)) / sm.fps;
      sampler_.sample(t);
      for (std::size_t i = 0; i < n; ++i) {
        const BoneFrame& k = sampler_.key(i);
        const auto q = quaternion_of(k.f.r);
        auto exact = quaternion_of(k.d.r);
        double dot = 0, norm = 0;
        for (int c = 0; c < 4; ++c) dot += exact[c] * q[c], norm += exact[c] * exact[c];
        norm = std::sqrt(norm);
        for (auto& c : exact) c = (dot < 0 ? -c : c) / norm;
        const double tolerance = angle_precision(k.h, k.p, k.b) + 1e-9;
        bool found = false;
        values[i].rotations[f] = sdk_rotation_key(q, exact, tolerance, &found);
        if (found) ++st_.rotation_keys_found;
        values[i].translations[f] = k.f.c;
      }
    }
    keys.frames = static_cast<std::uint32_t>(frames);
    keys.bones.resize(n);
    lay_out(values, frames, out, keys);
    return std::nullopt;
  }

  // Records in the SDK's layout; all of one motion's key bytes in one buffer.
  void lay_out(std::vector<RecordValues>& values, std::size_t frames, OmfFile& out, MotionKeys& keys) {
    const std::size_t n = values.size();
    const bool allow_16 = o_.params_version >= 4;
    std::vector<TranslationChoice> tc(n);
    std::vector<Recovered> rec(n);
    bool prefer_16 = o_.force_16bit && allow_16;
    for (std::size_t i = 0; i < n; ++i) {
      rec[i] = recover_track(values[i].translations, allow_16, o_.force_16bit && allow_16);
      if (rec[i].found16 == 3 && rec[i].found8 == 0) prefer_16 = true;
    }
    for (std::size_t i = 0; i < n; ++i) {
      tc[i] = choose_translation(values[i].translations, rec[i], prefer_16, allow_16, o_.force_16bit && allow_16);
      if (tc[i].keyed) {
        ++st_.translations;
        if (tc[i].found) ++st_.translations_found;
      }
    }
    // Stored tracks that are all 16-bit, one of them with a short range, mean the SDK was told to
    // write 16 bits (it only chooses them for half-ranges over 1.5 m): then its constant records
    // carry the flag too.
    std::size_t keyed = 0, sixteen = 0, short_sixteen = 0;
    for (const auto& t : tc) {
      if (!t.keyed) continue;
      ++keyed;
      if (!t.found || !t.sixteen) continue;
      ++sixteen;
      const float length = std::sqrt(t.size.x * t.size.x + t.size.y * t.size.y + t.size.z * t.size.z) * 32767.0f;
      if (length <= kSixteenBitRange) ++short_sixteen;
    }
    if (keyed > 0 && sixteen == keyed && short_sixteen > 0) forced_ = true;
    std::vector<std::uint8_t> bytes;
    struct Span { std::size_t rot = 0, rot_size = 0, tr = 0, tr_size = 0; };
    std::vector<Span> spans(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& rot = values[i].rotations;
      bool rotates = false;
      for (std::size_t f = 1; f < frames && !rotates; ++f) rotates = rot[f] != rot[0];
      BoneKeys& b = keys.bones[i];
      b.flags = static_cast<std::uint8_t>((tc[i].keyed ? kFlagTKeysPresent : 0) | (rotates ? 0 : kFlagRKeysAbsent) |
                                          (tc[i].sixteen ? kFlagTKeys16 : 0));
      spans[i].rot = bytes.size();
      const std::size_t count = rotates ? frames : 1;
      spans[i].rot_size = count * 8;
      bytes.resize(bytes.size() + count * 8);
      for (std::size_t f = 0; f < count; ++f) std::memcpy(bytes.data() + spans[i].rot + f * 8, rot[f].data(), 8);
      st_.rotation_keys += frames;
      spans[i].tr = bytes.size();
      spans[i].tr_size = tc[i].keys.size();
      bytes.insert(bytes.end(), tc[i].keys.begin(), tc[i].keys.end());
      b.translation_size = tc[i].size;
      b.translation_init = tc[i].init;
      ++st_.records;
    }
    const Bytes stored = out.keep(std::move(bytes));
    for (std::size_t i = 0; i < n; ++i) {
      BoneKeys& b = keys.bones[i];
      b.rotation_keys = stored.subspan(spans[i].rot, spans[i].rot_size);
      b.translation_keys = stored.subspan(spans[i].tr, spans[i].tr_size);
      update_crcs(b);
    }
    st_.frames += frames;
  }

  void report(const std::vector<std::string>& no_motion_bones, const std::vector<std::string>& lacking, std::size_t dropped_marks,
              std::size_t fps_other, std::size_t root_movers) {
    if (!lacking.empty())
      warnings_.add(Severity::warning, 0, "motions",
                    "motions lack bones of the skeleton (" + sk_.source + "): those bones keep their rest pose, as the SDK gives them",
                    "", std::to_string(lacking.size()) + " motion(s): " + list_names(lacking));
    if (!no_motion_bones.empty())
      warnings_.add(Severity::warning, 0, "motions",
                    "motions have bones the skeleton (" + sk_.source + ") lacks: left out, as the SDK leaves them out", "",
                    std::to_string(no_motion_bones.size()) + " motion(s): " + list_names(no_motion_bones));
    if (dropped_marks > 0)
      warnings_.add(Severity::warning, 0, "0xF marks", "params version 3 (SoC) stores no marks: left out", "params version 4",
                    std::to_string(dropped_marks) + " motion(s) with marks");
    if (fps_other > 0)
      warnings_.add(Severity::warning, 0, "motions",
                    "motions at another rate than 30 fps: the SDK samples them at frame / fps, and the game plays the "
                    "frames at 30 fps (faster or slower than authored)",
                    "30 fps", std::to_string(fps_other) + " motion(s)");
    if (root_movers > 0)
      warnings_.add(Severity::warning, 0, "motions",
                    "root_mover motions: the SDK also moves the root object along the motion's anchor; boneyard compiles "
                    "the root's keys in ACTORTRANSFORM only",
                    "", std::to_string(root_movers) + " motion(s)");
  }

  const std::vector<SklMotion>& motions_;
  const SklCompileOptions& o_;
  const MotionSkeleton& sk_;
  Diagnostics& warnings_;
  SklCompileStats& st_;
  MotionSampler sampler_;
  bool forced_ = false;  // a stored track shows the SDK was forced to 16 bits
};

}  // namespace

Result<OmfFile> compile_skl_motions(const std::vector<SklMotion>& motions, const SklCompileOptions& o, Diagnostics& warnings,
                                    SklCompileStats* stats) {
  SklCompileStats local;
  SklCompileStats& st = stats ? *stats : local;
  st = {};
  if (motions.empty())
    return Finding{Severity::error, 0, "motions", "no motions to compile", ">= 1 motion", "0"};
  if (o.params_version != 3 && o.params_version != 4)
    return Finding{Severity::error, 0, "0xF", "params version must be 3 (SoC) or 4 (CS/CoP)", "3 or 4",
                   std::to_string(o.params_version)};
  const MotionSkeleton own = o.skeleton ? MotionSkeleton{} : motion_skeleton(motions);
  const MotionSkeleton& sk = o.skeleton ? *o.skeleton : own;
  if (sk.bones.empty()) return Finding{Severity::error, 0, "skeleton", "no bones to compile the motions for", ">= 1 bone", "0"};
  for (std::size_t i = 0; i < sk.bones.size(); ++i)
    if (auto problem = compile_name_problem(sk.bones[i].name, OmfName::bone); !problem.empty())
      return Finding{Severity::error, 0, "skeleton bone " + std::to_string(i), "bone name " + problem, "a name the .omf can store",
                     "\"" + printable(sk.bones[i].name) + "\""};
  return Compiler(motions, o, sk, warnings, st).run();
}

}  // namespace boneyard::xray
