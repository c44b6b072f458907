// What boneyard computes, for checks by programs it does not contain (blender_xray_interop.py):
//   sdk_probe envelopes COUNT SEED   random envelopes of every shape, and boneyard's values inside them
//   sdk_probe anm FILE...            each .anm's channels and boneyard's value at each frame
//   sdk_probe lzhuf DIR              data files and boneyard's LZHuf encoding of each (DIR/N.data, DIR/N.lzh)
//   sdk_probe seeds DIR              the fuzzers' crafted seeds (tests/fuzz_seeds/make_seeds.sh)
// Output: one JSON object per line, {"name", "keys": [{time, value, shape, tension, continuity,
// bias, param}], "samples": [[time, value]]}.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "boneyard/core/file_io.h"
#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/anm/anm.h"
#include "boneyard/xray/envelope/envelope.h"
#include "sdk_fixtures.h"

using namespace boneyard;
using namespace boneyard::xray;

namespace {

nlohmann::json key_json(const EnvelopeKey& k) {
  return {{"time", k.time},   {"value", k.value}, {"shape", k.shape}, {"tension", k.tension},
          {"continuity", k.continuity}, {"bias", k.bias},   {"param", {k.param[0], k.param[1], k.param[2], k.param[3]}}};
}

void print(const std::string& name, const std::vector<EnvelopeKey>& keys, const std::vector<float>& times) {
  nlohmann::json j;
  j["name"] = name;
  j["keys"] = nlohmann::json::array();
  for (const auto& k : keys) j["keys"].push_back(key_json(k));
  j["samples"] = nlohmann::json::array();
  for (float t : times) j["samples"].push_back({t, evaluate_envelope(keys, 1, 1, t)});
  std::printf("%s\n", j.dump().c_str());
}

int envelopes(int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  auto pick = [&](float lo, float hi) { return lo + (hi - lo) * unit(rng); };
  for (int e = 0; e < count; ++e) {
    const int n = 2 + static_cast<int>(rng() % 5);
    std::vector<EnvelopeKey> keys(static_cast<std::size_t>(n));
    float time = rng() % 3 == 0 ? 0.0f : pick(-1.0f, 1.0f);
    for (auto& k : keys) {
      k.time = time;
      time += pick(0.05f, 1.0f);
      k.value = pick(-3.0f, 3.0f);
      k.shape = static_cast<std::uint32_t>(rng() % 6);
      const bool plain = rng() % 2 == 0;  // half the keys have tension, continuity and bias 0
      k.tension = plain ? 0.0f : pick(-1.0f, 1.0f);
      k.continuity = plain ? 0.0f : pick(-1.0f, 1.0f);
      k.bias = plain ? 0.0f : pick(-1.0f, 1.0f);
      for (auto& p : k.param) p = pick(-2.0f, 2.0f);
    }
    // Bezier 2D time handles inside their spans, where the time search finds its time.
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (i + 1 < keys.size()) keys[i].param[2] = (keys[i + 1].time - keys[i].time) * pick(0.05f, 0.6f);
      if (i > 0) keys[i].param[0] = -(keys[i].time - keys[i - 1].time) * pick(0.05f, 0.6f);
    }
    std::vector<float> times;
    for (std::size_t i = 0; i + 1 < keys.size(); ++i)
      for (int f = 0; f <= 10; ++f) times.push_back(keys[i].time + (keys[i + 1].time - keys[i].time) * (static_cast<float>(f) / 10.0f));
    print("random " + std::to_string(e), keys, times);
  }
  return 0;
}

int anm(int argc, char** argv) {
  int failures = 0;
  for (int i = 0; i < argc; ++i) {
    auto data = FileData::open(argv[i]);
    if (!data) {
      std::fprintf(stderr, "%s: %s\n", argv[i], data.error().message.c_str());
      ++failures;
      continue;
    }
    auto file = read_anm(data.value());
    if (!file) {
      std::fprintf(stderr, "%s: %s\n", argv[i], file.error().message.c_str());
      ++failures;
      continue;
    }
    const AnmMotion& m = file->motion;
    for (std::size_t c = 0; c < kMotionChannels; ++c) {
      const auto channel = static_cast<MotionChannel>(c);
      const auto keys = decode_envelope_keys(m.channel(channel));
      std::vector<float> times;
      for (std::int64_t frame = m.frame_start; frame <= m.frame_end && keys.size() > 1; ++frame) {
        const float t = static_cast<float>(frame) / m.fps;
        if (t >= keys.front().time && t <= keys.back().time) times.push_back(t);
      }
      print(std::string(argv[i]) + " " + std::string(motion_channel_name(channel)), keys, times);
    }
  }
  return failures == 0 ? 0 : 1;
}

int lzhuf(const std::filesystem::path& dir) {
  std::mt19937 rng(38);
  const std::vector<std::size_t> sizes = {1, 60, 61, 200, 4096, 5000, 20000, 70000};
  int index = 0;
  for (std::size_t size : sizes) {
    for (int kind = 0; kind < 3; ++kind) {
      std::vector<std::uint8_t> data(size);
      for (std::size_t i = 0; i < size; ++i) {
        switch (kind) {
          case 0: data[i] = static_cast<std::uint8_t>(rng()); break;                       // random
          case 1: data[i] = static_cast<std::uint8_t>("bip01_spine head"[rng() % 16]); break;  // few symbols
          default: data[i] = static_cast<std::uint8_t>(i / 97 % 7 == 0 ? rng() : i % 13); break;  // runs and repeats
        }
      }
      const auto packed = lzhuf_encode(data);
      std::ofstream(dir / (std::to_string(index) + ".data"), std::ios::binary)
          .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
      std::ofstream(dir / (std::to_string(index) + ".lzh"), std::ios::binary)
          .write(reinterpret_cast<const char*>(packed.data()), static_cast<std::streamsize>(packed.size()));
      ++index;
    }
  }
  std::printf("%d\n", index);
  return 0;
}

void write_seed(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Small files of every version and container, one envelope of each shape and behaviour, a packed
// chunk: what the readers' branches need to start from.
int seeds(const std::filesystem::path& dir) {
  using namespace boneyard::test::sdk;
  for (std::uint16_t v = 4; v <= 7; ++v)
    write_seed(dir / "fuzz_skl" / ("v" + std::to_string(v) + ".skls"),
               skls_of({motion_body(v, 2, true, "idle"), motion_body(v, 1, false, "walk")}));
  write_seed(dir / "fuzz_skl" / "v6.skl", chunk_of(kChunkSkeletonMotion, motion_body(6)));
  write_seed(dir / "fuzz_skl" / "v7_packed.skl", chunk_of(kChunkSkeletonMotion | kChunkCompressBit, lzhuf_encode(motion_body(7))));
  // Every shape and behaviour in one motion: bone 0's channels get behaviours 0-5 and shapes 0-5.
  {
    std::vector<std::uint8_t> body;
    ByteWriter w(body);
    w.stringz("shapes");
    w.s32(0);
    w.s32(30);
    w.f32(30.0f);
    w.u16(7);
    w.u8(0);
    w.u16(0xFFFF);
    for (float p : {1.0f, 2.0f, 1.0f, 1.0f}) w.f32(p);
    w.u16(1);
    w.stringz("bip01");
    w.u8(0);
    for (std::uint32_t c = 0; c < 6; ++c)
      put_envelope(w, EnvelopeLayout::v2, c, 5 - c, {{0.0f, 0.0f}, {0.4f, 1.0f}, {1.0f, -1.0f}}, static_cast<EnvelopeShape>(c));
    w.u32(0);
    write_seed(dir / "fuzz_skl" / "shapes_behaviours.skls", skls_of({body}));
  }
  for (std::uint16_t v = 3; v <= 5; ++v)
    write_seed(dir / "fuzz_anm" / ("v" + std::to_string(v) + ".anm"), chunk_of(kChunkObjectMotion, anm_body(v)));
  write_seed(dir / "fuzz_anm" / "v5_packed.anm", chunk_of(kChunkObjectMotion | kChunkCompressBit, lzhuf_encode(anm_body(5))));
  const std::string text = "bip01_spine bip01_spine1 bip01_head bip01_l_clavicle bip01_r_clavicle bip01_spine";
  write_seed(dir / "fuzz_lzhuf" / "text.lzh", lzhuf_encode(std::vector<std::uint8_t>(text.begin(), text.end())));
  write_seed(dir / "fuzz_lzhuf" / "runs.lzh", lzhuf_encode(std::vector<std::uint8_t>(300, 0)));
  write_seed(dir / "fuzz_lzhuf" / "motion.lzh", lzhuf_encode(motion_body(6)));
  write_seed(dir / "fuzz_lzhuf" / "empty.lzh", lzhuf_encode({}));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "envelopes" && argc == 4) return envelopes(std::stoi(argv[2]), static_cast<unsigned>(std::stoul(argv[3])));
  if (what == "anm") return anm(argc - 2, argv + 2);
  if (what == "lzhuf" && argc == 3) return lzhuf(argv[2]);
  if (what == "seeds" && argc == 3) return seeds(argv[2]);
  std::fprintf(stderr, "usage: sdk_probe envelopes COUNT SEED | anm FILE... | lzhuf DIR | seeds DIR\n");
  return 2;
}
