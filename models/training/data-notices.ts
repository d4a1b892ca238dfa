/** ODbL 4.3 attribution and UNIPEN conditions of use II.c; the same text is in docs/third-party-notices.md. */
export const STROKES_DATA_NOTICES = [
  'Contains information from the Detexify training database (https://github.com/kirel/detexify-data), which is made available here under the Open Database License (ODbL) (https://opendatacommons.org/licenses/odbl/1-0/). The derivative database and the method of making it (convert_detexify.py, kirel/detexify-next commit 6831c8178c34dae2a996736a41bee111d1a41a2d) are offered free of charge on request.',
  'The handwriting recogniser was trained in part on the UNIPEN train_r01_v07 data of the International Unipen Foundation (UNIPEN project of on-line data exchange and recognizer benchmarks, ICPR 1994, doi:10.1109/ICPR.1994.576870; data set doi:10.5281/zenodo.1195803). The UNIPEN data itself is not distributed with this product.',
];
