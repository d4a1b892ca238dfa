import { glyphInk } from './worker/engine/math/layout/test-glyphs.js';
for (const t of ['x','b','\\alpha','\\sum','\\int','\\prime','\\hat','-','\\cdot','h','1']) console.log(t, glyphInk(t), glyphInk(t,{display:true}));
