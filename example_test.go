package pad_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/tensorpad/pad"
)

// printRows prints a 2-D tensor of the given shape one row per line, each
// element formatted with verb and separated by sep.
func printRows[T any](v []T, shape []int, verb, sep string) {
	rows, cols := shape[0], shape[1]
	for r := 0; r < rows; r++ {
		elems := make([]string, cols)
		for c := 0; c < cols; c++ {
			elems[c] = fmt.Sprintf(verb, v[r*cols+c])
		}
		fmt.Printf("[%s]\n", strings.Join(elems, sep))
	}
}

// onnxPads converts ONNX's pads layout [x1_begin, x2_begin, ..., x1_end,
// x2_end, ...] to per-axis Before and After.
func onnxPads(pads []int) (before, after []int) {
	r := len(pads) / 2
	return pads[:r], pads[r:]
}

// The ONNX examples pad this 3x2 tensor.
var onnxData = []float32{
	1.0, 1.2,
	2.3, 3.4,
	4.5, 5.7,
}

// The OpenVINO Pad-1 examples pad this 3x4 tensor with pads_begin = [0, 1],
// pads_end = [2, 3].
var openvinoData = []int32{
	1, 2, 3, 4,
	5, 6, 7, 8,
	9, 10, 11, 12,
}

// Pad a tensor in one call: the OpenVINO Pad-1 "edge" example. Values at
// the borders are repeated outwards.
func Example() {
	mode, err := pad.ParseMode("edge")
	if err != nil {
		panic(err)
	}
	spec := pad.Spec{Mode: mode, Before: []int{0, 1}, After: []int{2, 3}}
	out, shape, err := pad.Pad(openvinoData, []int{3, 4}, spec, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(shape)
	printRows(out, shape, "%2d", " ")
	// Output:
	// [5 8]
	// [ 1  1  2  3  4  4  4  4]
	// [ 5  5  6  7  8  8  8  8]
	// [ 9  9 10 11 12 12 12 12]
	// [ 9  9 10 11 12 12 12 12]
	// [ 9  9 10 11 12 12 12 12]
}

// ONNX Pad, example 1 (constant mode): insert two 0.0 at the beginning of
// the second axis. ONNX pads = [0, 2, 0, 0] lists all begins, then all ends.
func ExamplePad() {
	before, after := onnxPads([]int{0, 2, 0, 0})
	spec := pad.Spec{Mode: pad.Constant, Before: before, After: after}
	out, shape, err := pad.Pad(onnxData, []int{3, 2}, spec, 0.0) // constant_value = 0.0
	if err != nil {
		panic(err)
	}
	fmt.Println(shape)
	printRows(out, shape, "%.1f", ", ")
	// Output:
	// [3 4]
	// [0.0, 0.0, 1.0, 1.2]
	// [0.0, 0.0, 2.3, 3.4]
	// [0.0, 0.0, 4.5, 5.7]
}

// ONNX Pad, example 2 (reflect mode): mirror on the edge element, which is
// not repeated.
func ExamplePad_reflect() {
	before, after := onnxPads([]int{0, 2, 0, 0})
	spec := pad.Spec{Mode: pad.Reflect, Before: before, After: after}
	out, shape, err := pad.Pad(onnxData, []int{3, 2}, spec, 0)
	if err != nil {
		panic(err)
	}
	printRows(out, shape, "%.1f", ", ")
	// Output:
	// [1.0, 1.2, 1.0, 1.2]
	// [2.3, 3.4, 2.3, 3.4]
	// [4.5, 5.7, 4.5, 5.7]
}

// ONNX Pad, example 3 (edge mode): repeat the edge element.
func ExamplePad_edge() {
	before, after := onnxPads([]int{0, 2, 0, 0})
	spec := pad.Spec{Mode: pad.Edge, Before: before, After: after}
	out, shape, err := pad.Pad(onnxData, []int{3, 2}, spec, 0)
	if err != nil {
		panic(err)
	}
	printRows(out, shape, "%.1f", ", ")
	// Output:
	// [1.0, 1.0, 1.0, 1.2]
	// [2.3, 2.3, 2.3, 3.4]
	// [4.5, 4.5, 4.5, 5.7]
}

// ONNX Pad, example 4 (wrap mode): wrap around as if the tensor were a
// torus. pads = [2, 1, 1, 1]: two rows before, one after; one column on
// each side.
func ExamplePad_wrap() {
	before, after := onnxPads([]int{2, 1, 1, 1})
	spec := pad.Spec{Mode: pad.Wrap, Before: before, After: after}
	out, shape, err := pad.Pad(onnxData, []int{3, 2}, spec, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(shape)
	printRows(out, shape, "%.1f", ", ")
	// Output:
	// [6 4]
	// [3.4, 2.3, 3.4, 2.3]
	// [5.7, 4.5, 5.7, 4.5]
	// [1.2, 1.0, 1.2, 1.0]
	// [3.4, 2.3, 3.4, 2.3]
	// [5.7, 4.5, 5.7, 4.5]
	// [1.2, 1.0, 1.2, 1.0]
}

// The four modes of OpenVINO Pad-1 on its documented example:
// pads_begin = [0, 1], pads_end = [2, 3].
func ExamplePad_openVINO() {
	for _, name := range []string{"constant", "edge", "reflect", "symmetric"} {
		mode, err := pad.ParseMode(name)
		if err != nil {
			panic(err)
		}
		spec := pad.Spec{Mode: mode, Before: []int{0, 1}, After: []int{2, 3}}
		out, shape, err := pad.Pad(openvinoData, []int{3, 4}, spec, 0)
		if err != nil {
			panic(err)
		}
		fmt.Printf("pad_mode = %q:\n", name)
		printRows(out, shape, "%2d", " ")
	}
	// Output:
	// pad_mode = "constant":
	// [ 0  1  2  3  4  0  0  0]
	// [ 0  5  6  7  8  0  0  0]
	// [ 0  9 10 11 12  0  0  0]
	// [ 0  0  0  0  0  0  0  0]
	// [ 0  0  0  0  0  0  0  0]
	// pad_mode = "edge":
	// [ 1  1  2  3  4  4  4  4]
	// [ 5  5  6  7  8  8  8  8]
	// [ 9  9 10 11 12 12 12 12]
	// [ 9  9 10 11 12 12 12 12]
	// [ 9  9 10 11 12 12 12 12]
	// pad_mode = "reflect":
	// [ 2  1  2  3  4  3  2  1]
	// [ 6  5  6  7  8  7  6  5]
	// [10  9 10 11 12 11 10  9]
	// [ 6  5  6  7  8  7  6  5]
	// [ 2  1  2  3  4  3  2  1]
	// pad_mode = "symmetric":
	// [ 1  1  2  3  4  4  3  2]
	// [ 5  5  6  7  8  8  7  6]
	// [ 9  9 10 11 12 12 11 10]
	// [ 9  9 10 11 12 12 11 10]
	// [ 5  5  6  7  8  8  7  6]
}

// Interior padding (nGraph Pad): a 3x3 tensor with interior padding (1, 2),
// padding below (1, 2), padding above (1, 0) and pad value 42.
func ExamplePad_interior() {
	in := []int32{
		1, 2, 3,
		4, 5, 6,
		7, 8, 9,
	}
	spec := pad.Spec{
		Mode:     pad.Constant,
		Before:   []int{1, 2},
		After:    []int{1, 0},
		Interior: []int{1, 2},
	}
	out, shape, err := pad.Pad(in, []int{3, 3}, spec, 42)
	if err != nil {
		panic(err)
	}
	fmt.Println(shape)
	printRows(out, shape, "%2d", " ")
	// Output:
	// [7 9]
	// [42 42 42 42 42 42 42 42 42]
	// [42 42  1 42 42  2 42 42  3]
	// [42 42 42 42 42 42 42 42 42]
	// [42 42  4 42 42  5 42 42  6]
	// [42 42 42 42 42 42 42 42 42]
	// [42 42  7 42 42  8 42 42  9]
	// [42 42 42 42 42 42 42 42 42]
}

// Negative pads remove elements. In the non-constant modes the order of
// cropping and padding matters (SEMANTICS §4): ONNX crops first, OpenVINO
// and nGraph pad first.
func ExampleOrder() {
	// Wrap [1 2 3 4] with before -3, after +3, cropping first: the window
	// [4] is extended.
	wrap := pad.Spec{Mode: pad.Wrap, Before: []int{-3}, After: []int{3}, Order: pad.CropThenPad}
	out, _, err := pad.Pad([]int{1, 2, 3, 4}, []int{4}, wrap, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("crop then pad:", out)

	// Edge [1..6] with before 2, after -7, padding first: [1 1 1 2 3 4 5 6]
	// loses its last seven elements.
	edge := pad.Spec{Mode: pad.Edge, Before: []int{2}, After: []int{-7}, Order: pad.PadThenCrop}
	out, _, err = pad.Pad([]int{1, 2, 3, 4, 5, 6}, []int{6}, edge, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("pad then crop:", out)
	// Output:
	// crop then pad: [4 4 4 4]
	// pad then crop: [1]
}

// A Plan is built once for an input shape and a padding and then run any
// number of times, for any element type: here the OpenVINO "reflect"
// example on int32 and on float64 data.
func ExampleNewPlan() {
	spec := pad.Spec{Mode: pad.Reflect, Before: []int{0, 1}, After: []int{2, 3}}
	p, err := pad.NewPlan([]int{3, 4}, spec)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.InShape(), "->", p.OutShape())

	n := p.OutShape()[0] * p.OutShape()[1]
	dst := make([]int32, n)
	if err := pad.Run(p, dst, openvinoData, 0); err != nil {
		panic(err)
	}
	printRows(dst, p.OutShape(), "%2d", " ")

	src64 := make([]float64, len(openvinoData))
	for i, v := range openvinoData {
		src64[i] = float64(v) / 2
	}
	dst64 := make([]float64, n)
	if err := pad.Run(p, dst64, src64, 0); err != nil {
		panic(err)
	}
	printRows(dst64[:p.OutShape()[1]], []int{1, p.OutShape()[1]}, "%.1f", " ")
	// Output:
	// [3 4] -> [5 8]
	// [ 2  1  2  3  4  3  2  1]
	// [ 6  5  6  7  8  7  6  5]
	// [10  9 10 11 12 11 10  9]
	// [ 6  5  6  7  8  7  6  5]
	// [ 2  1  2  3  4  3  2  1]
	// [1.0 0.5 1.0 1.5 2.0 1.5 1.0 0.5]
}

// CachedPlan suits code that meets the same shapes again without keeping
// plans of its own, such as an interpreter that runs a graph node by node:
// the plan is compiled at the first call and found again at the next.
func ExampleCachedPlan() {
	spec := pad.Spec{Mode: pad.Edge, Before: []int{1}, After: []int{2}}
	for _, src := range [][]float32{{1, 2, 3}, {4, 5, 6}} {
		p, err := pad.CachedPlan([]int{3}, spec)
		if err != nil {
			panic(err)
		}
		dst := make([]float32, p.OutShape()[0])
		if err := pad.Run(p, dst, src, 0); err != nil {
			panic(err)
		}
		fmt.Println(dst)
	}
	// Output:
	// [1 1 2 3 3 3]
	// [4 4 5 6 6 6]
}

// RunBytes pads raw storage given the element size, for element types
// without a Go counterpart (float16, bfloat16, float8, ...). Here the
// OpenVINO "symmetric" example as little-endian int16, and the ONNX constant
// example as float32 bits with constant_value 9.5.
func ExamplePlan_RunBytes() {
	sym := pad.Spec{Mode: pad.Symmetric, Before: []int{0, 1}, After: []int{2, 3}}
	p, err := pad.NewPlan([]int{3, 4}, sym)
	if err != nil {
		panic(err)
	}
	src := make([]byte, 2*len(openvinoData))
	for i, v := range openvinoData {
		binary.LittleEndian.PutUint16(src[2*i:], uint16(v))
	}
	dst := make([]byte, 2*5*8)
	if err := p.RunBytes(dst, src, 2, nil); err != nil { // nil value: zero
		panic(err)
	}
	vals := make([]int16, len(dst)/2)
	for i := range vals {
		vals[i] = int16(binary.LittleEndian.Uint16(dst[2*i:]))
	}
	printRows(vals, p.OutShape(), "%2d", " ")

	p, err = pad.NewPlan([]int{3, 2}, pad.Spec{Mode: pad.Constant, Before: []int{0, 2}, After: []int{0, 0}})
	if err != nil {
		panic(err)
	}
	src = make([]byte, 4*len(onnxData))
	for i, v := range onnxData {
		binary.LittleEndian.PutUint32(src[4*i:], math.Float32bits(v))
	}
	value := binary.LittleEndian.AppendUint32(nil, math.Float32bits(9.5))
	dst = make([]byte, 4*3*4)
	if err := p.RunBytes(dst, src, 4, value); err != nil {
		panic(err)
	}
	f := make([]float32, len(dst)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(dst[4*i:]))
	}
	printRows(f, p.OutShape(), "%.1f", ", ")
	// Output:
	// [ 1  1  2  3  4  4  3  2]
	// [ 5  5  6  7  8  8  7  6]
	// [ 9  9 10 11 12 12 11 10]
	// [ 9  9 10 11 12 12 11 10]
	// [ 5  5  6  7  8  8  7  6]
	// [9.5, 9.5, 1.0, 1.2]
	// [9.5, 9.5, 2.3, 3.4]
	// [9.5, 9.5, 4.5, 5.7]
}

// RunPacked pads packed sub-byte elements (int4, uint4, float4e2m1: two per
// byte, the first in the low nibble). [1 2 3] padded with one 7 before and
// two after gives [7 1 2 3 7 7].
func ExamplePlan_RunPacked() {
	p, err := pad.NewPlan([]int{3}, pad.Spec{Mode: pad.Constant, Before: []int{1}, After: []int{2}})
	if err != nil {
		panic(err)
	}
	src := []byte{0x21, 0x03} // 1, 2 | 3, unused nibble
	dst := make([]byte, 3)
	if err := p.RunPacked(dst, src, 4, 7); err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", dst)
	// Output:
	// 17 32 77
}

// OutShape computes the output shape without padding anything: the
// OpenVINO Pad-1 layer example, input [1, 3, 32, 40], pads_begin
// [0, 5, 2, 1], pads_end [1, 0, 3, 7].
func ExampleSpec_OutShape() {
	spec := pad.Spec{Mode: pad.Constant, Before: []int{0, 5, 2, 1}, After: []int{1, 0, 3, 7}}
	shape, err := spec.OutShape([]int{1, 3, 32, 40})
	if err != nil {
		panic(err)
	}
	fmt.Println(shape)
	// Output:
	// [2 8 37 48]
}
