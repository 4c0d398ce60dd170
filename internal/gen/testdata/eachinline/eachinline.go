// Package eachinline calls the face's Query1.Each and Query2.Each with
// function literals, for TestEachInlines to build with -gcflags=-m: both
// calls and both literals must inline.
package eachinline

import "github.com/tickwork/tickwork"

// Step1 adds 1 to every value of q.
func Step1(q tickwork.Query1[float32]) {
	q.Each(func(_ tickwork.Handle, x *float32) { *x++ })
}

// Step2 adds v/2 to x in every row of q.
func Step2(q tickwork.Query2[float32, float32]) {
	q.Each(func(_ tickwork.Handle, x, v *float32) { *x += *v * 0.5 })
}
