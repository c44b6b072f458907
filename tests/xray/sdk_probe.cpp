// What boneyard computes, for checks by programs it does not contain (blender_xray_interop.py):
//   sdk_probe envelopes COUNT SEED   random envelopes of every shape, and boneyard's values inside them
//   sdk_probe lzhuf DIR              data files and boneyard's LZHuf encoding of each (DIR/N.data, DIR/N.lzh)
// Output: one JSON object per line, {"name", "keys": [{time, value, shape, tension, continuity,
// bias, param}], "samples": [[time, value]]}.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "boneyard/core/lzhuf.h"
#include "boneyard/xray/envelope/envelope.h"

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

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "envelopes" && argc == 4) return envelopes(std::stoi(argv[2]), static_cast<unsigned>(std::stoul(argv[3])));
  if (what == "lzhuf" && argc == 3) return lzhuf(argv[2]);
  std::fprintf(stderr, "usage: sdk_probe envelopes COUNT SEED | lzhuf DIR\n");
  return 2;
}
