package onnx_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/onnx"
)

// Every mode string under every opset.
func TestSpecModes(t *testing.T) {
	modes := map[string]pad.Mode{"": pad.Constant, "constant": pad.Constant, "reflect": pad.Reflect, "edge": pad.Edge, "wrap": pad.Wrap}
	for opset := 0; opset <= 26; opset++ {
		for _, mode := range []string{"", "constant", "reflect", "edge", "wrap", "symmetric", "Constant", "REFLECT", "Edge ", "circular", "none"} {
			want, known := modes[mode]
			ok := opset >= 1 && known && (mode != "wrap" || opset >= 19)
			s, err := onnx.Spec(opset, mode, 2, []int64{1, 0, 0, 1}, nil)
			if !ok {
				if !errors.Is(err, pad.ErrInvalidSpec) {
					t.Errorf("opset %d mode %q: got %v, want ErrInvalidSpec", opset, mode, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("opset %d mode %q: %v", opset, mode, err)
				continue
			}
			if s.Mode != want || s.Order != pad.CropThenPad || !slices.Equal(s.Before, []int{1, 0}) || !slices.Equal(s.After, []int{0, 1}) || s.Interior != nil {
				t.Errorf("opset %d mode %q: got %+v", opset, mode, s)
			}
		}
	}
}

func TestSpecAxes(t *testing.T) {
	tests := []struct {
		name          string
		opset, rank   int
		pads, axes    []int64
		before, after []int
	}{
		{"no axes", 18, 3, []int64{1, 2, 3, 4, 5, 6}, nil, []int{1, 2, 3}, []int{4, 5, 6}},
		{"subset", 18, 4, []int64{1, 2, 3, 4}, []int64{1, 3}, []int{0, 1, 0, 2}, []int{0, 3, 0, 4}},
		{"negative", 19, 4, []int64{1, 2, 3, 4}, []int64{-3, -1}, []int{0, 1, 0, 2}, []int{0, 3, 0, 4}},
		{"out of order", 21, 4, []int64{1, 2, 3, 4}, []int64{3, 2}, []int{0, 0, 2, 1}, []int{0, 0, 4, 3}},
		{"all", 25, 2, []int64{1, 2, 3, 4}, []int64{0, 1}, []int{1, 2}, []int{3, 4}},
		{"empty axes", 18, 2, []int64{}, []int64{}, []int{0, 0}, []int{0, 0}},
		{"rank 0", 11, 0, nil, nil, []int{}, []int{}},
		{"negative pads", 13, 2, []int64{-1, 2, 3, -4}, nil, []int{-1, 2}, []int{3, -4}},
	}
	for _, tc := range tests {
		s, err := onnx.Spec(tc.opset, "edge", tc.rank, tc.pads, tc.axes)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.Equal(s.Before, tc.before) || !slices.Equal(s.After, tc.after) {
			t.Errorf("%s: got before %v after %v, want %v %v", tc.name, s.Before, s.After, tc.before, tc.after)
		}
	}
}

// Every malformed node is an error wrapping the documented sentinel.
func TestSpecErrors(t *testing.T) {
	tests := []struct {
		name        string
		opset, rank int
		pads, axes  []int64
		want        error
	}{
		{"opset 0", 0, 1, []int64{0, 0}, nil, pad.ErrInvalidSpec},
		{"negative opset", -5, 1, []int64{0, 0}, nil, pad.ErrInvalidSpec},
		{"negative rank", 13, -1, nil, nil, pad.ErrInvalidSpec},
		{"odd pads", 13, 2, []int64{1, 1, 1}, nil, pad.ErrInvalidSpec},
		{"pads too short", 13, 2, []int64{1, 1}, nil, pad.ErrInvalidSpec},
		{"pads too long", 13, 1, []int64{1, 1, 1, 1}, nil, pad.ErrInvalidSpec},
		{"nil pads, rank 1", 13, 1, nil, nil, pad.ErrInvalidSpec},
		{"axes before 18", 13, 2, []int64{1, 1}, []int64{0}, pad.ErrInvalidSpec},
		{"empty axes before 18", 17, 2, []int64{}, []int64{}, pad.ErrInvalidSpec},
		{"axes at opset 2", 2, 2, []int64{1, 1}, []int64{1}, pad.ErrInvalidSpec},
		{"pads odd with axes", 18, 3, []int64{1, 1, 1}, []int64{0}, pad.ErrInvalidSpec},
		{"pads for rank, not axes", 18, 2, []int64{1, 1, 1, 1}, []int64{0}, pad.ErrInvalidSpec},
		{"axis = rank", 18, 2, []int64{1, 1}, []int64{2}, pad.ErrInvalidSpec},
		{"axis < -rank", 18, 2, []int64{1, 1}, []int64{-3}, pad.ErrInvalidSpec},
		{"huge axis", 18, 2, []int64{1, 1}, []int64{math.MaxInt64}, pad.ErrInvalidSpec},
		{"huge negative axis", 18, 2, []int64{1, 1}, []int64{math.MinInt64}, pad.ErrInvalidSpec},
		{"repeated axis", 18, 3, []int64{1, 1, 1, 1}, []int64{1, 1}, pad.ErrInvalidSpec},
		{"repeated via negative", 18, 3, []int64{1, 1, 1, 1}, []int64{2, -1}, pad.ErrInvalidSpec},
		{"axes on rank 0", 18, 0, []int64{1, 1}, []int64{0}, pad.ErrInvalidSpec},
		{"absurd rank", 18, math.MaxInt, []int64{1, 1}, []int64{0}, pad.ErrTooLarge},
	}
	for _, tc := range tests {
		_, err := onnx.Spec(tc.opset, "constant", tc.rank, tc.pads, tc.axes)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}
