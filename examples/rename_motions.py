"""Renames a motion in every .omf under a folder: python3 rename_motions.py FOLDER OLD NEW"""
import pathlib
import sys

import boneyard

folder, old, new = sys.argv[1:4]
for path in sorted(pathlib.Path(folder).rglob("*.omf")):
    omf = boneyard.Omf(path)
    if old in omf.names:
        omf.rename(old, new)
        print(f"{path}: renamed, original kept as {omf.save()}")
