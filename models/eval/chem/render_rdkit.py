"""Renders molecules with RDKit (Debian's python3-rdkit) for `make eval-chem`: never used to tune on.

Usage: /usr/bin/python3 render_rdkit.py <smiles.tsv> <out_dir> <dpi> [abbreviations]
       /usr/bin/python3 render_rdkit.py stereo <smiles.tsv>
Each row of smiles.tsv is `id<TAB>SMILES`; each molecule becomes <out_dir>/<id>.png with a bond
length of 0.2 inch (about the ACS document style's 14.4 pt) at the given resolution, so 150 dpi
gives 30 px bonds and 300 dpi 60 px. Wedge and hash bonds are drawn for stereocentres. With
`abbreviations`, groups RDKit knows (Et, iPr, tBu, CO2Et, OMe, NO2, CF3, ...) are drawn condensed
as labels, and a molecule with none is not drawn.
`stereo` prints `id<TAB>SMILES` with one stereoisomer of each molecule that has unassigned
stereocentres or double bonds (RDKit's enumeration, first isomer), the others left out.
"""
import sys

from rdkit import Chem
from rdkit.Chem import rdAbbreviations, rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D
from rdkit.Chem.EnumerateStereoisomers import EnumerateStereoisomers, StereoEnumerationOptions


def stereo(src: str) -> None:
    opts = StereoEnumerationOptions(onlyUnassigned=True, maxIsomers=1)
    for row in open(src, encoding="utf-8"):
        ident, smiles = row.rstrip("\n").split("\t")[:2]
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            continue
        for isomer in EnumerateStereoisomers(mol, options=opts):
            out = Chem.MolToSmiles(isomer)
            if "@" in out or "/" in out or "\\" in out:
                print(f"{ident}\t{out}")

BOND_INCH = 0.2


def main() -> None:
    if sys.argv[1] == "stereo":
        stereo(sys.argv[2])
        return
    src, out, dpi = sys.argv[1], sys.argv[2], int(sys.argv[3])
    abbreviate = len(sys.argv) > 4 and sys.argv[4] == "abbreviations"
    abbreviations = rdAbbreviations.GetDefaultAbbreviations()
    bond_px = BOND_INCH * dpi
    rdDepictor.SetPreferCoordGen(True)
    for row in open(src, encoding="utf-8"):
        ident, smiles = row.rstrip("\n").split("\t")[:2]
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            continue
        if abbreviate:
            condensed = rdAbbreviations.CondenseMolAbbreviations(mol, abbreviations, maxCoverage=0.6)
            if condensed.GetNumAtoms() == mol.GetNumAtoms():
                continue
            mol = condensed
        rdDepictor.Compute2DCoords(mol)
        conf = mol.GetConformer()
        xs = [conf.GetAtomPosition(i).x for i in range(mol.GetNumAtoms())]
        ys = [conf.GetAtomPosition(i).y for i in range(mol.GetNumAtoms())]
        # RDKit's depiction coordinates use a bond length of 1.5 units.
        scale = bond_px / 1.5
        width = int((max(xs) - min(xs)) * scale + 3 * bond_px)
        height = int((max(ys) - min(ys)) * scale + 3 * bond_px)
        drawer = rdMolDraw2D.MolDraw2DCairo(width, height)
        opts = drawer.drawOptions()
        opts.fixedBondLength = bond_px
        opts.bondLineWidth = max(1, round(dpi / 100))
        opts.useBWAtomPalette()
        opts.minFontSize = int(bond_px * 0.45)
        drawer.DrawMolecule(mol)
        drawer.FinishDrawing()
        with open(f"{out}/{ident}.png", "wb") as f:
            f.write(drawer.GetDrawingText())


if __name__ == "__main__":
    main()
