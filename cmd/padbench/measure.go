package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// An impl is one implementation under test: run executes it n times back
// to back and returns the time that took (measured by whoever runs it: the
// generic child times itself, so pipe latency is not counted).
type impl struct {
	name string
	run  func(n int) (time.Duration, error)
}

// timing says how long to measure one case.
type timing struct {
	sample time.Duration // target duration of one sample (n back-to-back runs)
	rounds int           // samples per implementation
	budget time.Duration // for the whole case: rounds stop early past it (after minRounds)
}

const minRounds = 3

// stats are the per-sample ns/op of one implementation on one case.
type stats struct {
	samples []float64 // ns/op, one per round
	n       int       // runs per sample
	median  float64
	min     float64
	iqr     float64 // interquartile range as a fraction of the median
}

func summarize(samples []float64, n int) stats {
	s := stats{samples: samples, n: n}
	sorted := slices.Clone(samples)
	slices.Sort(sorted)
	s.median = quantile(sorted, 0.5)
	s.min = sorted[0]
	if s.median > 0 {
		s.iqr = (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / s.median
	}
	return s
}

// quantile interpolates linearly between the sorted samples.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}

// calibrate finds how many runs of im last about one sample; the runs it
// makes on the way are the warm-up. A single run longer than the sample
// gives n = 1.
func calibrate(im impl, sample time.Duration) (int, error) {
	const maxN = 1 << 30
	n := 1
	for {
		d, err := im.run(n)
		if err != nil {
			return 0, err
		}
		if d >= sample/4 || n >= maxN {
			return clampN(float64(n) * float64(sample) / float64(max(d, 1))), nil
		}
		// Aim at half a sample next, growing at least 2× and at most 100×.
		next := float64(n) * float64(sample/2) / float64(max(d, 1))
		n = clampN(min(max(next, float64(2*n)), float64(100*n)))
	}
}

func clampN(f float64) int {
	return int(min(max(f, 1), 1<<30))
}

// measure times the implementations of one case: calibration, then rounds
// in which every implementation runs one sample, round r starting with
// implementation r mod len(impls) so that slow phases of the machine hit
// them all alike. progress, if not nil, is called before each round.
func measure(impls []impl, t timing, progress func(round, rounds int)) ([]stats, error) {
	if len(impls) == 0 {
		return nil, errors.New("nothing to measure")
	}
	start := time.Now()
	ns := make([]int, len(impls))
	for i, im := range impls {
		n, err := calibrate(im, t.sample)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", im.name, err)
		}
		ns[i] = n
	}
	rounds := max(t.rounds, 1)
	samples := make([][]float64, len(impls))
	for r := 0; r < rounds; r++ {
		if r >= minRounds && t.budget > 0 && time.Since(start) > t.budget {
			break
		}
		if progress != nil {
			progress(r, rounds)
		}
		for k := range impls {
			i := (r + k) % len(impls)
			d, err := impls[i].run(ns[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", impls[i].name, err)
			}
			samples[i] = append(samples[i], float64(d.Nanoseconds())/float64(ns[i]))
		}
	}
	out := make([]stats, len(impls))
	for i := range impls {
		out[i] = summarize(samples[i], ns[i])
	}
	return out, nil
}

// timeLoop runs f n times and returns the elapsed time.
func timeLoop(n int, f func() error) (time.Duration, error) {
	start := time.Now()
	for range n {
		if err := f(); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}
