package onnx_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/padtest"
	"github.com/tensorpad/pad/onnx"
)

// randomData returns storage for n elements of dt; packed types leave the
// unused high bits of the last byte zero.
func randomData(r *rand.Rand, dt onnx.DataType, n int) []byte {
	b := make([]byte, (n*dt.Bits()+7)/8)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	if dt == onnx.Bool {
		for i := range b {
			b[i] &= 1
		}
	}
	if used := n * dt.Bits() % 8; used != 0 {
		b[len(b)-1] &= 1<<used - 1
	}
	return b
}

// Every (opset, type) pair through Pad itself: a listed type pads (checked
// against the independent reference), any other is rejected.
func TestPadTypeMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shape := []int{3, 5} // 15 elements: odd, so packed rows start mid-byte
	for opset := 1; opset <= 25; opset++ {
		for dt := onnx.DataType(0); dt <= 27; dt++ {
			n := onnx.Node{Opset: opset, Mode: "reflect", Pads: []int64{1, -1, 2, 3}}
			if !onnx.Supports(opset, dt) || dt == onnx.String {
				_, _, err := onnx.Pad(n, dt, shape, make([]byte, 64), nil)
				if !errors.Is(err, pad.ErrInvalidSpec) {
					t.Errorf("opset %d %v: got %v, want ErrInvalidSpec", opset, dt, err)
				}
				if dt != onnx.String && !errors.Is(err, onnx.ErrUnsupportedType) {
					t.Errorf("opset %d %v: got %v, want ErrUnsupportedType", opset, dt, err)
				}
				continue
			}
			data := randomData(r, dt, 15)
			out, outShape, err := onnx.Pad(n, dt, shape, data, nil)
			want, wantShape, _ := padtest.Reference(padtest.Ref{Shape: shape, Bits: dt.Bits(), Data: data, Mode: "reflect", Before: []int{1, -1}, After: []int{2, 3}})
			if err != nil || !slices.Equal(outShape, wantShape) || !bytes.Equal(out, want) {
				t.Errorf("opset %d %v: got %v %x (%v), want %v %x", opset, dt, outShape, out, err, wantShape, want)
			}
		}
	}
}

// Constant padding with an explicit value for every type of the newest opset.
func TestPadConstantValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shape := []int{2, 3}
	for dt := onnx.DataType(1); dt <= 26; dt++ {
		if dt == onnx.String {
			continue
		}
		data := randomData(r, dt, 6)
		value := randomData(r, dt, 1)
		n := onnx.Node{Opset: 25, Pads: []int64{1, 0, -1, 2}}
		out, outShape, err := onnx.Pad(n, dt, shape, data, value)
		want, wantShape, _ := padtest.Reference(padtest.Ref{Shape: shape, Bits: dt.Bits(), Data: data, Mode: "constant", Before: []int{1, 0}, After: []int{-1, 2}, Value: value})
		if err != nil || !slices.Equal(outShape, wantShape) || !bytes.Equal(out, want) {
			t.Errorf("%v: got %v %x (%v), want %v %x", dt, outShape, out, err, wantShape, want)
		}
	}
	// A packed scalar's unused high bits are storage padding, not value.
	out, _, err := onnx.Pad(onnx.Node{Opset: 21, Pads: []int64{1, 0}}, onnx.Int4, []int{1}, []byte{0x03}, []byte{0xF5})
	if err != nil || !bytes.Equal(out, []byte{0x35}) {
		t.Errorf("int4 value with high nibble set: got %x (%v), want 35", out, err)
	}
}

// The Pad-1/Pad-2 float attribute, converted to the element type.
func TestPadAttributeValue(t *testing.T) {
	n := onnx.Node{Opset: 2, Pads: []int64{1, 0}, Value: 1.2}
	out, _, err := onnx.Pad(n, onnx.Float16, []int{1}, []byte{0x00, 0x3C}, nil)
	if err != nil || !bytes.Equal(out, []byte{0xCD, 0x3C, 0x00, 0x3C}) { // 1.2 -> 0x3CCD (nearest float16)
		t.Errorf("float16: got %x (%v)", out, err)
	}
	out, _, err = onnx.Pad(n, onnx.Double, []int{0}, nil, nil)
	want := binary.LittleEndian.AppendUint64(nil, math.Float64bits(float64(float32(1.2))))
	if err != nil || !bytes.Equal(out, want) {
		t.Errorf("double: got %x (%v), want %x", out, err, want)
	}
	if _, _, err := onnx.Pad(n, onnx.Float16, []int{1}, []byte{0x00, 0x3C}, []byte{}); err != nil {
		t.Errorf("an empty constantValue counts as absent: %v", err)
	}
	n.Opset = 1 // `paddings`, same layout
	out, _, err = onnx.Pad(n, onnx.Float, []int{1}, []byte{0, 0, 0x80, 0x3F}, nil)
	if err != nil || !bytes.Equal(out, []byte{0x9A, 0x99, 0x99, 0x3F, 0, 0, 0x80, 0x3F}) {
		t.Errorf("float: got %x (%v)", out, err)
	}
}

// Every malformed call is an error wrapping the documented sentinel, and
// none allocates the (possibly huge) output first.
func TestPadErrors(t *testing.T) {
	f32 := []byte{0, 0, 0x80, 0x3F}
	tests := []struct {
		name  string
		n     onnx.Node
		dt    onnx.DataType
		shape []int
		data  []byte
		value []byte
		want  error
	}{
		{"data too short", onnx.Node{Opset: 13, Pads: []int64{1, 1}}, onnx.Float, []int{2}, f32, nil, pad.ErrShapeMismatch},
		{"data too long", onnx.Node{Opset: 13, Pads: []int64{1, 1}}, onnx.Float, []int{1}, append(f32, 0), nil, pad.ErrShapeMismatch},
		{"nil data", onnx.Node{Opset: 13, Pads: []int64{1, 1}}, onnx.Float, []int{1}, nil, nil, pad.ErrShapeMismatch},
		{"packed data too short", onnx.Node{Opset: 21, Pads: []int64{1, 1}}, onnx.Int4, []int{3}, []byte{0}, nil, pad.ErrShapeMismatch},
		{"packed data too long", onnx.Node{Opset: 25, Pads: []int64{1, 1}}, onnx.Int2, []int{4}, []byte{0, 0}, nil, pad.ErrShapeMismatch},
		{"value too short", onnx.Node{Opset: 11, Pads: []int64{1, 1}}, onnx.Float, []int{1}, f32, []byte{1, 2, 3}, pad.ErrShapeMismatch},
		{"value too long", onnx.Node{Opset: 11, Pads: []int64{1, 1}}, onnx.Int8, []int{1}, []byte{1}, []byte{1, 2}, pad.ErrShapeMismatch},
		{"value of complex64 size for complex128", onnx.Node{Opset: 13, Pads: []int64{1, 1}}, onnx.Complex128, []int{0}, nil, make([]byte, 8), pad.ErrShapeMismatch},
		{"packed value of two bytes", onnx.Node{Opset: 21, Pads: []int64{1, 1}}, onnx.Uint4, []int{1}, []byte{1}, []byte{1, 0}, pad.ErrShapeMismatch},
		{"value in non-constant mode still typed", onnx.Node{Opset: 13, Mode: "edge", Pads: []int64{1, 1}}, onnx.Float, []int{1}, f32, []byte{1}, pad.ErrShapeMismatch},
		{"constant_value input before opset 11", onnx.Node{Opset: 10, Pads: []int64{1, 1}}, onnx.Float, []int{1}, f32, f32, pad.ErrInvalidSpec},
		{"value attribute from opset 11", onnx.Node{Opset: 11, Pads: []int64{1, 1}, Value: 2}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"negative zero attribute from opset 11", onnx.Node{Opset: 11, Pads: []int64{1, 1}, Value: float32(math.Copysign(0, -1))}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"unsupported type", onnx.Node{Opset: 10, Pads: []int64{1, 1}}, onnx.Int32, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"undefined type", onnx.Node{Opset: 25, Pads: []int64{1, 1}}, onnx.Undefined, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"string through Pad", onnx.Node{Opset: 13, Pads: []int64{1, 1}}, onnx.String, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"unknown mode", onnx.Node{Opset: 13, Mode: "symmetric", Pads: []int64{1, 1}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"wrap before 19", onnx.Node{Opset: 18, Mode: "wrap", Pads: []int64{1, 1}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"odd pads", onnx.Node{Opset: 13, Pads: []int64{1}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"pads for another rank", onnx.Node{Opset: 13, Pads: []int64{1, 1, 1, 1}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"axis out of range", onnx.Node{Opset: 18, Pads: []int64{1, 1}, Axes: []int64{1}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"axis repeated", onnx.Node{Opset: 18, Pads: []int64{1, 1, 1, 1}, Axes: []int64{0, -1}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"negative dimension", onnx.Node{Opset: 13, Pads: []int64{1, 1}}, onnx.Float, []int{-1}, nil, nil, pad.ErrInvalidSpec},
		{"negative output length", onnx.Node{Opset: 13, Pads: []int64{-2, 0}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"reflect crop beyond the axis", onnx.Node{Opset: 13, Mode: "reflect", Pads: []int64{-2, 2}}, onnx.Float, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"edge pad of an empty axis", onnx.Node{Opset: 13, Mode: "edge", Pads: []int64{1, 0}}, onnx.Float, []int{0}, nil, nil, pad.ErrEmptyAxis},
		{"edge pad of a cropped-away axis", onnx.Node{Opset: 18, Mode: "edge", Pads: []int64{-1, 1}}, onnx.Float, []int{1}, f32, nil, pad.ErrEmptyAxis},
		{"pad overflows int", onnx.Node{Opset: 13, Pads: []int64{math.MaxInt64, 1}}, onnx.Float, []int{1}, f32, nil, pad.ErrTooLarge},
		{"output too large to allocate", onnx.Node{Opset: 13, Pads: []int64{math.MaxInt / 4, 0}}, onnx.Float, []int{1}, f32, nil, pad.ErrTooLarge},
		{"huge output, wrong data", onnx.Node{Opset: 13, Pads: []int64{math.MaxInt / 4, 0}}, onnx.Float, []int{1}, nil, nil, pad.ErrShapeMismatch},
	}
	for _, tc := range tests {
		out, shape, err := onnx.Pad(tc.n, tc.dt, tc.shape, tc.data, tc.value)
		if !errors.Is(err, tc.want) || out != nil || shape != nil {
			t.Errorf("%s: got %v (out %v, shape %v), want %v", tc.name, err, out != nil, shape, tc.want)
		}
	}
}

// The shared pad value's absence (nil or empty) means zero.
func TestPadZeroValue(t *testing.T) {
	for _, value := range [][]byte{nil, {}} {
		out, _, err := onnx.Pad(onnx.Node{Opset: 11, Pads: []int64{1, 0}}, onnx.Int16, []int{1}, []byte{7, 0}, value)
		if err != nil || !bytes.Equal(out, []byte{0, 0, 7, 0}) {
			t.Errorf("value %v: got %x (%v)", value, out, err)
		}
	}
}

func TestPadStrings(t *testing.T) {
	data := []string{"a", "b", "c", "d"}
	x := "x"
	tests := []struct {
		name  string
		n     onnx.Node
		value *string
		want  []string
		shape []int
	}{
		{"constant default", onnx.Node{Opset: 13, Pads: []int64{0, 1, 0, 0}}, nil, []string{"", "a", "b", "", "c", "d"}, []int{2, 3}},
		{"constant value", onnx.Node{Opset: 18, Pads: []int64{1, 0}, Axes: []int64{-2}}, &x, []string{"x", "x", "a", "b", "c", "d"}, []int{3, 2}},
		{"edge", onnx.Node{Opset: 13, Mode: "edge", Pads: []int64{0, 0, 0, 1}}, &x, []string{"a", "b", "b", "c", "d", "d"}, []int{2, 3}},
		{"wrap with crop", onnx.Node{Opset: 19, Mode: "wrap", Pads: []int64{0, -1, 0, 2}}, nil, []string{"b", "b", "b", "d", "d", "d"}, []int{2, 3}},
	}
	for _, tc := range tests {
		got, shape, err := onnx.PadStrings(tc.n, []int{2, 2}, data, tc.value)
		if err != nil || !slices.Equal(got, tc.want) || !slices.Equal(shape, tc.shape) {
			t.Errorf("%s: got %q %v (%v), want %q %v", tc.name, got, shape, err, tc.want, tc.shape)
		}
	}
	errs := []struct {
		name string
		n    onnx.Node
		data []string
		want error
	}{
		{"opset 11 has no string", onnx.Node{Opset: 11, Pads: []int64{0, 0, 0, 0}}, data, onnx.ErrUnsupportedType},
		{"data length", onnx.Node{Opset: 13, Pads: []int64{0, 0, 0, 0}}, data[:3], pad.ErrShapeMismatch},
		{"value attribute", onnx.Node{Opset: 13, Pads: []int64{0, 0, 0, 0}, Value: 1}, data, pad.ErrInvalidSpec},
		{"bad mode", onnx.Node{Opset: 13, Mode: "wrap", Pads: []int64{0, 0, 0, 0}}, data, pad.ErrInvalidSpec},
		{"empty axis", onnx.Node{Opset: 13, Mode: "reflect", Pads: []int64{0, -2, 0, 1}}, data, pad.ErrEmptyAxis},
	}
	for _, tc := range errs {
		if _, _, err := onnx.PadStrings(tc.n, []int{2, 2}, tc.data, nil); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}
