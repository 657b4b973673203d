#!/bin/sh
exec yes "{\"decision\":\"allow\"}"
