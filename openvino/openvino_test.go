package openvino_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/padtest"
	"github.com/tensorpad/pad/openvino"
)

func int64s(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// Every case of openvino_pad.json under every op version it lists.
func TestConformance(t *testing.T) {
	runs, cases, failures := 0, 0, 0
	for _, c := range padtest.Load(t, "openvino_pad.json") {
		if c.OpenVINO == nil {
			t.Fatalf("%s: no openvino block", c.Name)
		}
		cases++
		for _, op := range c.OpenVINO.Ops {
			version, err := strconv.Atoi(strings.TrimPrefix(op, "Pad-"))
			if err != nil {
				t.Fatalf("%s: op %q", c.Name, op)
			}
			runs++
			t.Run(fmt.Sprintf("%s/%s", c.Name, op), func(t *testing.T) {
				begin, end := int64s(c.PadsBegin), int64s(c.PadsEnd)
				if _, err := openvino.Spec(version, c.Mode, begin, end, c.Shape); (err != nil) != (c.Error != nil) {
					t.Errorf("Spec: %v", err)
				}
				out, shape, err := openvino.Pad(version, c.Mode, begin, end, padtest.Bits[c.DType]/8, c.Shape, padtest.Bytes(t, c.Data), c.ValueBytes(t))
				if c.Error != nil {
					failures++
					if !errors.Is(err, openvino.ErrPadLimit) || !errors.Is(err, pad.ErrInvalidSpec) {
						t.Errorf("expected failure (%s): got %v, want ErrPadLimit", *c.Error, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(shape, c.OutShape) || !bytes.Equal(out, padtest.Bytes(t, c.Out)) {
					t.Errorf("got shape %v, want %v, or the bytes differ", shape, c.OutShape)
				}
			})
		}
	}
	t.Logf("openvino front-end, openvino_pad.json: %d cases, %d runs (case x op version), %d expected failures rejected", cases, runs, failures)
	if failures != 2 {
		t.Errorf("want the 2 limit errors, saw %d", failures)
	}
}

func TestSpec(t *testing.T) {
	for _, version := range []int{1, 12} {
		s, err := openvino.Spec(version, "symmetric", []int64{2, -1}, []int64{-3, 3}, []int{3, 4})
		if err != nil || s.Mode != pad.Symmetric || s.Order != pad.PadThenCrop || !slices.Equal(s.Before, []int{2, -1}) || !slices.Equal(s.After, []int{-3, 3}) {
			t.Errorf("Pad-%d: got %+v, %v", version, s, err)
		}
	}
	// Limits: reflect <= dim-1, symmetric <= dim, each side; crops are free.
	limits := []struct {
		mode       string
		begin, end int64
		ok         bool
	}{
		{"reflect", 3, 0, true}, {"reflect", 0, 3, true}, {"reflect", 4, 0, false}, {"reflect", 0, 4, false},
		{"symmetric", 4, 4, true}, {"symmetric", 5, 0, false}, {"symmetric", 0, 5, false},
		{"reflect", -4, 3, true}, {"symmetric", 4, -3, true},
		{"edge", 100, 100, true}, {"constant", 100, 100, true},
	}
	for _, l := range limits {
		for _, version := range []int{1, 12} {
			_, err := openvino.Spec(version, l.mode, []int64{0, l.begin}, []int64{0, l.end}, []int{2, 4})
			if l.ok && err != nil {
				t.Errorf("Pad-%d %s %d,%d: %v", version, l.mode, l.begin, l.end, err)
			}
			if !l.ok && (!errors.Is(err, openvino.ErrPadLimit) || !errors.Is(err, pad.ErrInvalidSpec)) {
				t.Errorf("Pad-%d %s %d,%d: got %v, want ErrPadLimit", version, l.mode, l.begin, l.end, err)
			}
		}
	}
	// An axis of length 1 has nothing to reflect: any positive reflect pad is
	// over the limit, a zero pad is fine.
	if _, err := openvino.Spec(12, "reflect", []int64{1}, []int64{0}, []int{1}); !errors.Is(err, openvino.ErrPadLimit) {
		t.Errorf("reflect of length 1: got %v", err)
	}
	if _, err := openvino.Spec(12, "reflect", []int64{0}, []int64{0}, []int{0}); err != nil {
		t.Errorf("reflect of an empty axis with zero pads: %v", err)
	}
}

func TestErrors(t *testing.T) {
	f32 := []byte{0, 0, 0x80, 0x3F}
	tests := []struct {
		name       string
		version    int
		mode       string
		begin, end []int64
		elemSize   int
		shape      []int
		data       []byte
		value      []byte
		want       error
	}{
		{"Pad-0", 0, "constant", []int64{1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"Pad-2", 2, "constant", []int64{1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"Pad-11", 11, "constant", []int64{1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"wrap is not OpenVINO", 12, "wrap", []int64{1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"mode case", 12, "Constant", []int64{1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"empty mode", 12, "", []int64{1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"pads_begin too long", 1, "constant", []int64{1, 1}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"pads_end too short", 1, "edge", []int64{1}, []int64{}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"negative length", 12, "constant", []int64{-2}, []int64{0}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"negative dim", 12, "constant", []int64{0}, []int64{0}, 4, []int{-1}, nil, nil, pad.ErrInvalidSpec},
		{"edge of an empty axis", 12, "edge", []int64{1}, []int64{0}, 4, []int{0}, nil, nil, pad.ErrEmptyAxis},
		{"symmetric of an empty axis", 1, "symmetric", []int64{0}, []int64{1}, 4, []int{0}, nil, nil, pad.ErrEmptyAxis},
		{"overflow", 12, "constant", []int64{math.MaxInt64}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrTooLarge},
		{"output too large", 12, "constant", []int64{math.MaxInt / 4}, []int64{0}, 4, []int{1}, f32, nil, pad.ErrTooLarge},
		{"element size 0", 12, "constant", []int64{1}, []int64{1}, 0, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"negative element size", 12, "constant", []int64{1}, []int64{1}, -4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"data too short", 12, "constant", []int64{1}, []int64{1}, 4, []int{2}, f32, nil, pad.ErrShapeMismatch},
		{"data too long", 1, "edge", []int64{1}, []int64{1}, 2, []int{1}, f32, nil, pad.ErrShapeMismatch},
		{"pad_value wrong size", 12, "constant", []int64{1}, []int64{1}, 4, []int{1}, f32, []byte{1, 2}, pad.ErrShapeMismatch},
	}
	for _, tc := range tests {
		out, shape, err := openvino.Pad(tc.version, tc.mode, tc.begin, tc.end, tc.elemSize, tc.shape, tc.data, tc.value)
		if !errors.Is(err, tc.want) || out != nil || shape != nil {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	// Outside constant mode the pad value is ignored, whatever its size.
	out, _, err := openvino.Pad(12, "edge", []int64{1}, []int64{0}, 4, []int{1}, f32, []byte{9})
	if err != nil || !bytes.Equal(out, append(f32, f32...)) {
		t.Errorf("edge with a stray pad value: got %x, %v", out, err)
	}
}
