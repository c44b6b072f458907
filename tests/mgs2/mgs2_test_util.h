// Helpers shared by the MGS2 tests: decoded-content comparison and finding lookup.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "boneyard/mgs2/evm/evm.h"
#include "boneyard/mgs2/kms/kms.h"

namespace boneyard::test {

inline bool same_bytes(Bytes a, Bytes b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
inline Bytes as_bytes(const std::vector<std::uint8_t>& v) { return Bytes(v.data(), v.size()); }

// Same decoded content: every field a reader reports and every array's bytes, ignoring where
// things are stored (offsets, gaps, rgbs, which a fresh layout recomputes).
inline void expect_same_content(const mgs2::KmsFile& a, const mgs2::KmsFile& b) {
  EXPECT_EQ(a.header.data_format, b.header.data_format);
  EXPECT_EQ(a.header.n_models, b.header.n_models);
  EXPECT_EQ(a.header.n_x_models, b.header.n_x_models);
  EXPECT_EQ(a.header.texture, b.header.texture);
  EXPECT_EQ(a.header.pad, b.header.pad);
  EXPECT_EQ(a.header.bbox_min, b.header.bbox_min);
  EXPECT_EQ(a.header.bbox_max, b.header.bbox_max);
  EXPECT_EQ(a.header.position, b.header.position);
  ASSERT_EQ(a.units.size(), b.units.size());
  for (std::size_t i = 0; i < a.units.size(); ++i) {
    const auto& u = a.units[i];
    const auto& v = b.units[i];
    EXPECT_EQ(u.type, v.type);
    EXPECT_EQ(u.parent, v.parent);
    EXPECT_EQ(u.position, v.position);
    EXPECT_EQ(u.bbox_min, v.bbox_min);
    EXPECT_EQ(u.bbox_max, v.bbox_max);
    ASSERT_EQ(u.packets.size(), v.packets.size());
    for (std::size_t j = 0; j < u.packets.size(); ++j) {
      const auto& p = u.packets[j];
      const auto& q = v.packets[j];
      EXPECT_EQ(p.flag, q.flag);
      EXPECT_EQ(p.n_verts, q.n_verts);
      EXPECT_EQ(p.tex_id, q.tex_id);
      EXPECT_TRUE(same_bytes(p.verts.data, q.verts.data));
      EXPECT_TRUE(same_bytes(p.norms.data, q.norms.data));
      for (int s = 0; s < 3; ++s) {
        EXPECT_EQ(p.uvs[s].present(), q.uvs[s].present()) << "uv" << s;
        EXPECT_TRUE(same_bytes(p.uvs[s].data, q.uvs[s].data));
      }
    }
  }
}

inline void expect_same_content(const mgs2::EvmFile& a, const mgs2::EvmFile& b) {
  EXPECT_EQ(a.header.n_models, b.header.n_models);
  EXPECT_EQ(a.header.n_x_models, b.header.n_x_models);
  EXPECT_EQ(a.header.type, b.header.type);
  EXPECT_EQ(a.header.texture, b.header.texture);
  EXPECT_EQ(a.header.bbox_min, b.header.bbox_min);
  EXPECT_EQ(a.header.bbox_max, b.header.bbox_max);
  ASSERT_EQ(a.bones.size(), b.bones.size());
  for (std::size_t i = 0; i < a.bones.size(); ++i) {
    EXPECT_EQ(a.bones[i].flag, b.bones[i].flag);
    EXPECT_EQ(a.bones[i].parent, b.bones[i].parent);
    EXPECT_EQ(a.bones[i].translation, b.bones[i].translation);
    EXPECT_EQ(a.bones[i].root_offset, b.bones[i].root_offset);
    EXPECT_EQ(a.bones[i].box_min, b.bones[i].box_min);
    EXPECT_EQ(a.bones[i].box_max, b.bones[i].box_max);
  }
  ASSERT_EQ(a.packets.size(), b.packets.size());
  for (std::size_t j = 0; j < a.packets.size(); ++j) {
    const auto& p = a.packets[j];
    const auto& q = b.packets[j];
    EXPECT_EQ(p.flag, q.flag);
    EXPECT_EQ(p.tex_id, q.tex_id);
    EXPECT_EQ(p.n_verts, q.n_verts);
    EXPECT_EQ(p.n_mats, q.n_mats);
    EXPECT_EQ(p.mat_id, q.mat_id);
    EXPECT_TRUE(same_bytes(p.verts.data, q.verts.data));
    EXPECT_TRUE(same_bytes(p.norms.data, q.norms.data));
    EXPECT_TRUE(same_bytes(p.weights.data, q.weights.data));
    EXPECT_EQ(p.weights.present(), q.weights.present());
    for (int s = 0; s < 3; ++s) {
      EXPECT_EQ(p.uvs[s].present(), q.uvs[s].present());
      EXPECT_TRUE(same_bytes(p.uvs[s].data, q.uvs[s].data));
    }
  }
}

// The findings whose path contains `path` and message contains `msg`.
inline std::vector<Finding> find(const Diagnostics& d, const std::string& path, const std::string& msg) {
  std::vector<Finding> out;
  for (const auto& f : d.findings()) {
    if (f.path.find(path) != std::string::npos && f.message.find(msg) != std::string::npos) out.push_back(f);
  }
  return out;
}

inline std::string dump_findings(const Diagnostics& d) {
  std::string s;
  for (const auto& f : d.findings()) s += format_finding(f, "fixture") + "\n";
  return s;
}

}  // namespace boneyard::test
