"""Pose-bone properties whose F-curves make a glTF channel (shared by both fingerprint formats)."""
KINDS = {"location": "translation", "rotation_quaternion": "rotation", "rotation_euler": "rotation",
         "rotation_axis_angle": "rotation", "scale": "scale"}
