console.log('hook');
