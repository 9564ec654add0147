package ngraph_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tensorpad/pad"
	"github.com/tensorpad/pad/internal/padtest"
	"github.com/tensorpad/pad/ngraph"
)

func int64s(v []int) []int64 {
	if v == nil {
		return nil
	}
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// Every case of xla_pad.json: the nGraph ones and, since XLA and StableHLO
// pad means the same (constant mode, interior, negative low/high), the rest.
func TestConformance(t *testing.T) {
	ngraphCases, others := 0, 0
	for _, c := range padtest.Load(t, "xla_pad.json") {
		if strings.HasPrefix(c.Name, "ngraph/") {
			ngraphCases++
		} else {
			others++
		}
		t.Run(c.Name, func(t *testing.T) {
			mode := strings.ToUpper(c.Mode)
			below, above, interior := int64s(c.PadsBegin), int64s(c.PadsEnd), int64s(c.Interior)
			s, err := ngraph.Spec(mode, below, above, interior)
			if err != nil {
				t.Fatalf("Spec: %v", err)
			}
			if shape, err := s.OutShape(c.Shape); err != nil || !slices.Equal(shape, c.OutShape) {
				t.Errorf("OutShape: got %v, %v, want %v", shape, err, c.OutShape)
			}
			out, shape, err := ngraph.Pad(mode, below, above, interior, padtest.Bits[c.DType]/8, c.Shape, padtest.Bytes(t, c.Data), c.ValueBytes(t))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(shape, c.OutShape) || !bytes.Equal(out, padtest.Bytes(t, c.Out)) {
				t.Errorf("got shape %v, want %v, or the bytes differ", shape, c.OutShape)
			}
		})
	}
	t.Logf("ngraph front-end, xla_pad.json: %d ngraph/ cases and %d xla/stablehlo cases run", ngraphCases, others)
	if ngraphCases == 0 {
		t.Error("no ngraph/ case")
	}
}

func TestSpecModes(t *testing.T) {
	want := map[string]pad.Mode{"": pad.Constant, "CONSTANT": pad.Constant, "constant": pad.Constant, "Edge": pad.Edge, "REFLECT": pad.Reflect, "symmetric": pad.Symmetric}
	for _, mode := range []string{"", "CONSTANT", "constant", "Edge", "REFLECT", "symmetric", "WRAP", "wrap", "circular", " EDGE"} {
		s, err := ngraph.Spec(mode, []int64{1}, []int64{-1}, nil)
		m, ok := want[mode]
		if !ok {
			if !errors.Is(err, pad.ErrInvalidSpec) {
				t.Errorf("%q: got %v, want ErrInvalidSpec", mode, err)
			}
			continue
		}
		if err != nil || s.Mode != m || s.Order != pad.PadThenCrop || !slices.Equal(s.Before, []int{1}) || !slices.Equal(s.After, []int{-1}) {
			t.Errorf("%q: got %+v, %v", mode, s, err)
		}
	}
	// Zero interior is allowed in every mode; rank 0 gives empty pads.
	if _, err := ngraph.Spec("EDGE", []int64{1}, []int64{1}, []int64{0}); err != nil {
		t.Errorf("zero interior in EDGE: %v", err)
	}
	if s, err := ngraph.Spec("CONSTANT", nil, nil, nil); err != nil || s.Before == nil || len(s.Before) != 0 {
		t.Errorf("rank 0: got %+v, %v", s, err)
	}
}

func TestErrors(t *testing.T) {
	f32 := []byte{0, 0, 0x80, 0x3F}
	specErrs := []struct {
		name                   string
		mode                   string
		below, above, interior []int64
		want                   error
	}{
		{"below/above lengths", "CONSTANT", []int64{1, 1}, []int64{1}, nil, pad.ErrInvalidSpec},
		{"interior length", "CONSTANT", []int64{1}, []int64{1}, []int64{1, 1}, pad.ErrInvalidSpec},
		{"empty interior for rank 1", "CONSTANT", []int64{1}, []int64{1}, []int64{}, pad.ErrInvalidSpec},
		{"negative interior", "CONSTANT", []int64{1}, []int64{1}, []int64{-1}, pad.ErrInvalidSpec},
		{"interior in EDGE", "EDGE", []int64{1}, []int64{1}, []int64{1}, pad.ErrInvalidSpec},
		{"interior in REFLECT", "REFLECT", []int64{1}, []int64{1}, []int64{2}, pad.ErrInvalidSpec},
		{"interior in SYMMETRIC", "SYMMETRIC", []int64{1}, []int64{1}, []int64{3}, pad.ErrInvalidSpec},
		{"unknown mode", "WRAP", []int64{1}, []int64{1}, nil, pad.ErrInvalidSpec},
	}
	for _, tc := range specErrs {
		if _, err := ngraph.Spec(tc.mode, tc.below, tc.above, tc.interior); !errors.Is(err, tc.want) {
			t.Errorf("Spec %s: got %v, want %v", tc.name, err, tc.want)
		}
		if _, _, err := ngraph.Pad(tc.mode, tc.below, tc.above, tc.interior, 4, []int{1}, f32, nil); !errors.Is(err, tc.want) {
			t.Errorf("Pad %s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	padErrs := []struct {
		name         string
		mode         string
		below, above []int64
		elemSize     int
		shape        []int
		data, value  []byte
		want         error
	}{
		{"rank mismatch", "CONSTANT", []int64{1, 1}, []int64{1, 1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"negative length", "CONSTANT", []int64{-3}, []int64{1}, 4, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"edge of an empty axis", "EDGE", []int64{0}, []int64{2}, 4, []int{0}, nil, nil, pad.ErrEmptyAxis},
		{"overflow", "CONSTANT", []int64{math.MaxInt64}, []int64{math.MaxInt64}, 4, []int{1}, f32, nil, pad.ErrTooLarge},
		{"output too large", "CONSTANT", []int64{math.MaxInt / 4}, []int64{0}, 8, []int{1}, f32[:0], nil, pad.ErrShapeMismatch},
		{"output too large, right data", "CONSTANT", []int64{math.MaxInt / 4}, []int64{0}, 4, []int{1}, f32, nil, pad.ErrTooLarge},
		{"element size", "CONSTANT", []int64{1}, []int64{1}, 0, []int{1}, f32, nil, pad.ErrInvalidSpec},
		{"data length", "CONSTANT", []int64{1}, []int64{1}, 4, []int{2}, f32, nil, pad.ErrShapeMismatch},
		{"value length", "CONSTANT", []int64{1}, []int64{1}, 4, []int{1}, f32, []byte{1}, pad.ErrShapeMismatch},
	}
	for _, tc := range padErrs {
		out, shape, err := ngraph.Pad(tc.mode, tc.below, tc.above, nil, tc.elemSize, tc.shape, tc.data, tc.value)
		if !errors.Is(err, tc.want) || out != nil || shape != nil {
			t.Errorf("Pad %s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// Non-constant modes against the independent reference, negative pads
// applied after the padding.
func TestModesAgainstReference(t *testing.T) {
	data := []byte{1, 2, 3, 4, 5, 6}
	for _, mode := range []string{"EDGE", "REFLECT", "SYMMETRIC", "CONSTANT"} {
		for _, p := range [][4]int{{2, -7, 0, 1}, {-7, 3, 1, -1}, {4, 4, -2, 2}, {-1, -1, 0, 0}} {
			below, above := []int64{int64(p[2]), int64(p[0])}, []int64{int64(p[3]), int64(p[1])}
			out, shape, err := ngraph.Pad(mode, below, above, nil, 1, []int{1, 6}, data, []byte{9})
			want, wantShape, refErr := padtest.Reference(padtest.Ref{
				Shape: []int{1, 6}, Bits: 8, Data: data, Mode: strings.ToLower(mode),
				Before: []int{p[2], p[0]}, After: []int{p[3], p[1]}, PadThenCrop: true, Value: []byte{9},
			})
			if (err != nil) != (refErr != nil) || !slices.Equal(shape, wantShape) || !bytes.Equal(out, want) {
				t.Errorf("%s %v: got %v %v (%v), reference %v %v (%v)", mode, p, shape, out, err, wantShape, want, refErr)
			}
		}
	}
}
