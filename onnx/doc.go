// Package onnx runs ONNX Pad nodes (opsets 1 to 25) with the pad core.
//
// A runtime calls Pad (raw little-endian storage, any element type the
// opset lists, including packed 4-bit and 2-bit types) or PadStrings once
// per node; Spec alone turns the node's mode, pads and axes into a
// pad.Spec, and Supports answers which element types an opset allows.
//
// The Pad schema in force is the largest Pad version <= the model's opset:
// 1 (attribute `paddings`, float attribute `value`, float types), 2 (attribute
// `pads`), 11 (pads and constant_value become inputs, integer types), 13
// (bool, string, bfloat16, complex), 18 (axes input), 19 (mode "wrap"), 21
// (float8 types, int4, uint4), 23 (float4e2m1), 24 (float8e8m0) and 25 (int2,
// uint2). Negative pads crop before the remaining window is padded
// (pad.CropThenPad); reflect and wrap pads of any size extend periodically,
// as the pad semantics settle it, where ONNX Runtime rejects large reflect
// pads.
//
// The float `value` attribute of opsets 1 to 10 is converted to the element
// type with round-to-nearest-even (float16, bfloat16 and float8 included).
//
// Every error wraps one of pad.ErrInvalidSpec, pad.ErrShapeMismatch,
// pad.ErrEmptyAxis or pad.ErrTooLarge, so errors.Is works on them.
package onnx
