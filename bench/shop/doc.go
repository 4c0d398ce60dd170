// Package shop is the Players / Orders / Products / Stores data set of the query
// corpus (package bench/corpus): its schema shop.tw, generated into
// shop_gen.go by go generate (its tables and the corpus's declared
// queries), and [Fill], which fills a world's tables from a seeded
// stream.
//
// # Tables
//
// Domain Accounts holds one entity per player: every one has a Player row,
// some a Profile row, and the tag tables Premium and Banned mark some. The
// standalone tables Product and Order hold the catalogue and the orders;
// an order's Buyer is a ref Player and its Item a ref Product. Fill deletes
// a share of the players after the orders are made, so some orders' Buyer
// and some players' Guild dangle (a left join's missing rows) and the
// Player table has holes. The standalone table Store holds points on a
// map of side [MapSide] (X, Y uniform, a 50th deleted) for the grid index
// StoresByPos: the corpus's box and disc (no system moves them, so the
// grid costs no upkeep). The event table Sale takes a sale per order from
// [EmitSales] (readable after the next frame), for the hash index
// SalesByBuyer: the corpus's event-index case.
//
// # Concurrency
//
// Fill changes the tables' structure and EmitSales emits from the host:
// call them between frames, from one goroutine. The tables' rows are then read-only for the corpus, safe
// for concurrent readers.
package shop

//go:generate go tool tickwork-gen -catalog -o shop_gen.go shop.tw
