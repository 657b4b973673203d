#!/bin/sh
trap "" TERM
sleep 30
sleep 30
